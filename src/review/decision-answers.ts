// Answers to decisions: `/review-loop decide <id> <n> [words]` in a comment on the PR, by a person
// allowed to answer (the caller asks GitHub: write access, neither the PR's author nor anyone who
// pushed to its branch, or the repository config's `decision-answerers`). An answer covers the
// question asked before it: a comment written before the question was posted answers nothing. The
// first allowed answer to a decision stands; the person's words go to the report only, and the
// fixer gets the chosen option as the agents wrote it (docs/decisions/0020-decisions-are-asked.md).
// Pure: the verdicts are the caller's.
import type { DecisionAnswer } from '../domain/findings.js';
import type { KnownDecision } from './decisions.js';

/** Whether a person may answer decisions; `why` says why not. */
export type AnswerVerdict = { ok: true } | { ok: false; why: string };

const DECIDE = /^\s*\/review-loop\s+decide(?=\s|$)[ \t]*(\S*)[ \t]*(\S*)([\s\S]*)$/i;
/** The person's words are cut: the report shows them, the hidden state keeps them. */
const MAX_WORDS = 300;

/** The command's parts, or null when the comment is not a decide command. */
export function decideCommand(body: string): { id: string; option: string; words: string } | null {
  const m = DECIDE.exec(body);
  if (!m) return null;
  return { id: m[1] ?? '', option: m[2] ?? '', words: (m[3] ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_WORDS) };
}

interface CommentLike {
  author: string;
  body: string;
  createdAt: string;
}

export interface RefusedAnswer {
  by: string;
  id: string;
  why: string;
}

/**
 * The answers in the PR's comments, oldest first, judged: per decision, the first command by someone
 * `mayAnswer` accepts that names one of its options and was written after the question was asked.
 * `askedAt`: when each open decision was first asked (its report comment); `headSha`: the head the
 * answer is read on, recorded with it.
 */
export async function judgeAnswers(
  comments: readonly CommentLike[],
  open: readonly KnownDecision[],
  askedAt: ReadonlyMap<string, string>,
  headSha: string,
  mayAnswer: (login: string) => Promise<AnswerVerdict>,
): Promise<{ accepted: Map<string, DecisionAnswer>; refused: RefusedAnswer[] }> {
  const accepted = new Map<string, DecisionAnswer>();
  const refused: RefusedAnswer[] = [];
  const asked = new Map<string, Promise<AnswerVerdict>>();
  const verdict = (login: string) => {
    const key = login.toLowerCase();
    if (!asked.has(key)) asked.set(key, mayAnswer(login));
    return asked.get(key)!;
  };
  const sorted = [...comments].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  for (const c of sorted) {
    const cmd = decideCommand(c.body);
    if (!cmd) continue;
    const refuse = (why: string) => refused.push({ by: c.author, id: cmd.id, why });
    const d = open.find((k) => k.finding.id.toLowerCase() === cmd.id.toLowerCase());
    if (!d) {
      refuse(`no open decision has the id "${cmd.id}" (example: /review-loop decide CAT-1a2b3c4d 2)`);
      continue;
    }
    if (accepted.has(d.finding.id) || d.answer) continue;
    const n = /^\d+$/.test(cmd.option) ? Number(cmd.option) : NaN;
    if (!(n >= 1 && n <= d.options.length)) {
      refuse(`"${cmd.option}" is not an option of ${d.finding.id} (1 to ${d.options.length})`);
      continue;
    }
    const when = askedAt.get(d.finding.id);
    if (!when || Date.parse(c.createdAt) <= Date.parse(when)) {
      refuse(`the comment was written before the question was asked${when ? ` (${when})` : ''}`);
      continue;
    }
    const v = await verdict(c.author);
    if (!v.ok) {
      refuse(v.why);
      continue;
    }
    accepted.set(d.finding.id, { chosen: n, by: c.author, comment: cmd.words, headSha });
  }
  return { accepted, refused };
}
