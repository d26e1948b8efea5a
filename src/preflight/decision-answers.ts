// The answers to the maintainers' decisions, read once at the start of a run: the decisions earlier
// runs asked (memory.ts) and the `/review-loop decide` comments on the PR, judged by who may answer
// (github/answerers.ts). An accepted answer is kept in every later report's hidden state, so it
// stands for later heads; a refused one is logged with why.
import type { IssueComment } from '../github/comments.js';
import type { MayAnswer } from '../github/answerers.js';
import type { PrMeta } from '../domain/pull-request.js';
import type { KnownDecision } from '../domain/findings.js';
import { decideCommand, judgeAnswers, type RefusedAnswer } from '../review/decision-answers.js';

export async function answeredDecisions(s: {
  meta: Pick<PrMeta, 'headSha'>;
  /** The run's one answerer check (github/answerers.ts), which the loop's dismissals use too. */
  mayAnswer: MayAnswer;
  comments: readonly IssueComment[];
  known: readonly KnownDecision[];
  askedAt: ReadonlyMap<string, string>;
  log: (line: string) => void;
  warn: (line: string) => void;
}): Promise<{ decisions: KnownDecision[]; refused: RefusedAnswer[] }> {
  const open = s.known.filter((d) => !d.answer);
  const commands = s.comments.filter((c) => decideCommand(c.body));
  if (open.length === 0 || commands.length === 0) return { decisions: [...s.known], refused: [] };
  const { accepted, refused } = await judgeAnswers(commands, open, s.askedAt, s.meta.headSha, s.mayAnswer);
  for (const r of refused) s.warn(`refused ${r.by}'s answer to decision ${r.id}: ${r.why}`);
  const decisions = s.known.map((d) => {
    const answer = accepted.get(d.finding.id);
    if (!answer) return d;
    s.log(`decision ${d.finding.id} answered by ${answer.by}: option ${answer.chosen}`);
    return { ...d, answer };
  });
  return { decisions, refused };
}
