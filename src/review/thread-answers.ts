// Answers in the action's finding threads: when a person with write access, or the PR's author,
// replies in the thread of one of the action's findings with anything but a command, a model (the
// answerer: the first reviewer's) reads the finding, the code at the head and the reply, and the
// action answers once in that thread. It concedes (a person still dismisses: only a person with
// write access may, by command), explains with evidence from the code, or says a fix is due. The
// reply is untrusted data, fenced; the answer is neutralised and redacted like every comment.
import { answerResultSchema } from '../agents/envelope.js';
import type { AgentSpec } from '../agents/types.js';
import { BudgetSpent } from '../budget/budget.js';
import type { Octokit } from '../github/client.js';
import type { Access } from '../github/permissions.js';
import { replyInThread } from '../github/review-api.js';
import type { PrContext } from '../domain/pull-request.js';
import { MARKER } from '../domain/marker.js';
import { callRole, type RoleEnv } from '../roles/call.js';
import { prContextData } from '../roles/context-data.js';
import { cleanText, neutraliseBlock } from '../security/neutralise.js';
import { capLength, redactDiffs } from '../security/sanitize.js';
import { cleanDeep, fenceAsData } from '../security/untrusted.js';
import { sameLogin } from './own-threads.js';
import { recentAnswers, threadsWithinLimits } from './answer-limits.js';
import { answerMark, repliesToAnswer, type ReplyToAnswer } from './thread-replies.js';

/** The newest replies of a thread the model reads at most, when several wait for one answer. */
const MAX_REPLIES_READ = 5;

export interface ThreadAnswersSetup {
  octokit: Octokit;
  /** The PR at its head; its threads are the ones answered. */
  ctx: PrContext;
  ownLogin: string;
  /** The answerer's model: the first reviewer's. */
  spec: AgentSpec;
  env: RoleEnv;
  /** Replies earlier runs answered (the hidden state). */
  answered: readonly number[];
  /** Whether a person has write access (asked of GitHub once per person). */
  writeAccess: (login: string) => Promise<Access>;
  /** Whether this run fixes findings (then a conceded-to-be-real finding is being fixed). */
  fixes: boolean;
  redact: (text: string) => string;
  log: (line: string) => void;
  /** False in dry-run, or when the token may not write: the answers are logged, not posted. */
  post: boolean;
}

/** One thread's replies waiting for an answer. */
interface Asked {
  first: ReplyToAnswer;
  replies: ReplyToAnswer['reply'][];
}

/** Answers what waits; returns the REST ids of the replies answered (for the hidden state). */
export async function answerReplies(s: ThreadAnswersSetup): Promise<number[]> {
  const waiting = repliesToAnswer(s.ctx.threads, s.ownLogin, new Set(s.answered));
  if (waiting.length === 0) return [];
  const byThread = await fromPeopleAnswered(s, waiting);
  // The limits (answer-limits.ts); the rest wait for a later run, and the log says so.
  const recent = recentAnswers(s.ctx.threads, s.ownLogin, Date.now());
  const { answer, held } = threadsWithinLimits([...byThread.keys()], recent);
  if (held) s.log(held);
  const done: number[] = [];
  for (const asked of answer.map((id) => byThread.get(id)!)) {
    try {
      if (await answerThread(s, asked)) done.push(...asked.replies.map((r) => r.id));
    } catch (e) {
      if (!(e instanceof BudgetSpent)) throw e;
      s.log(`thread answers stopped: ${e.message}`);
      break;
    }
  }
  return done;
}

/**
 * The replies by people the action answers, grouped by thread; the others are left alone and the
 * log says so. A thread gets one answer for all its waiting replies: a spree in one thread is one call.
 */
async function fromPeopleAnswered(s: ThreadAnswersSetup, waiting: ReplyToAnswer[]): Promise<Map<string, Asked>> {
  const author = s.ctx.meta.author;
  const verdicts = new Map<string, Promise<Access>>();
  const access = (login: string) => {
    const key = login.toLowerCase();
    if (!verdicts.has(key)) verdicts.set(key, s.writeAccess(login));
    return verdicts.get(key)!;
  };
  const byThread = new Map<string, Asked>();
  const ignored = new Set<string>();
  for (const w of waiting) {
    const login = w.reply.author;
    const ok = sameLogin(login, author) || (await access(login)).ok;
    if (!ok) {
      const key = `${w.thread.id}\0${login.toLowerCase()}`;
      if (!ignored.has(key)) {
        ignored.add(key);
        s.log(
          `thread answers: left a reply by ${login} in the thread of ${w.thread.finding.id} unanswered: ` +
            'only replies by people with write access and by the PR author are answered',
        );
      }
      continue;
    }
    const asked = byThread.get(w.thread.id);
    if (asked) asked.replies.push(w.reply);
    else byThread.set(w.thread.id, { first: w, replies: [w.reply] });
  }
  return byThread;
}

async function answerThread(s: ThreadAnswersSetup, asked: Asked): Promise<boolean> {
  const { thread, finding } = asked.first;
  const id = thread.finding.id;
  const read = asked.replies.slice(-MAX_REPLIES_READ);
  if (asked.replies.length > 1) {
    const shown = read.length < asked.replies.length ? `; the model reads the newest ${read.length}` : '';
    s.log(`thread answers: ${asked.replies.length} replies in the thread of ${id} get one answer${shown}`);
  }
  const authors = [...new Set(read.map((r) => r.author))].join(', ');
  const replyText = read.map((r) => fenceAsData(`Reply by ${r.author}`, r.body)).join('\n\n');
  const file = thread.path ?? thread.finding.file ?? 'the file the finding names';
  const place = `${file}${thread.line ? `:${thread.line}` : ''}`;
  const { outcome } = await callRole(s.env, {
    role: 'answerer',
    name: 'answerer',
    folder: `answer-${asked.replies.at(-1)!.id}`,
    spec: s.spec,
    ctx: s.ctx,
    round: 0,
    // The finding as data too (finding.json, as the confirmer reads one): its words are a reviewer's.
    // replies.json: the replies the prompt fences, cleaned the same way, for a model that reads files.
    data: {
      ...prContextData(s.ctx),
      extra: {
        'finding.json': cleanDeep({ ...thread.finding, place, text: finding }),
        'replies.json': cleanDeep(read.map(({ author, body }) => ({ author, body }))),
      },
    },
    template: 'answer',
    values: {
      place,
      finding: fenceAsData('The finding', finding),
      reply: replyText,
      replyAuthor: authors,
    },
    schema: answerResultSchema,
  });
  if (!outcome.ok) {
    s.log(`thread answers: the answerer failed on the thread of ${id} (${outcome.error}); a later run tries again`);
    return false;
  }
  const { stance, answer } = outcome.value;
  const body = capLength(
    s.redact(
      [
        neutraliseBlock(redactDiffs(cleanText(answer))),
        closingNote(stance, s.fixes),
        [MARKER, ...asked.replies.map((r) => answerMark(r.id))].join('\n'),
      ].join('\n\n'),
    ),
  );
  if (!s.post) {
    s.log(`thread answers: would answer ${authors} in the thread of ${id} (${stance}); not posted (no writes)`);
    return false;
  }
  await replyInThread(s.octokit, s.ctx.repo, s.ctx.meta.number, thread.commentId, body);
  s.log(`thread answers: answered ${authors} in the thread of ${id} (${stance})`);
  return true;
}

/** The action's own last word, after the model's: what a person does next. */
function closingNote(stance: 'concede' | 'explain' | 'fixing', fixes: boolean): string {
  if (stance === 'concede') {
    return (
      '_The action does not dismiss its own findings: a person with write access who agrees replies ' +
      '`/review-loop dismiss <reason>` here, and the loop will not fix, post or count it again._'
    );
  }
  if (stance === 'fixing') {
    return fixes
      ? '_The loop fixes this finding in its next fix round, and says so in this thread._'
      : '_This run only reviews: the fix is for the PR author (or a run in fix mode)._';
  }
  return (
    '_A reply by a person with write access, or the PR author, is answered once; ' +
    '`/review-loop dismiss <reason>` by a person with write access dismisses the finding._'
  );
}
