// Prints how often two reviewers reported the same problems in round 1 of each relay run:
//   node scripts/run-ts.mjs scripts/relay-agreement.ts /tmp/relay32 /tmp/relay33
// (scripts/eval/agreement.ts says what it counts and why).
import { roundOneAgreement } from './eval/agreement.js';

let groups = 0;
let shared = 0;
for (const dir of process.argv.slice(2)) {
  for (const c of roundOneAgreement(dir)) {
    groups += c.groups;
    shared += c.shared;
    const per = Object.entries(c.findings)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    console.log(`${dir} ${c.cwd}: ${per}; ${c.shared} of ${c.groups} problems reported by more than one reviewer`);
  }
}
console.log(`all: ${shared} of ${groups} problems reported by more than one reviewer`);
