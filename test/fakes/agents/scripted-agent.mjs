// A scripted agent for the `command` adapter. Mode in argv[2]:
//   envelope  read the prompt, answer with chatter and a BEGIN_JSON … END_JSON envelope
//             that echoes the REVIEW_LOOP_* variables and the prompt length
//   exit3     write 30 numbered lines to stderr and exit 3
//   garbage   print text without an envelope
//   hang      never answer
const mode = process.argv[2] ?? 'envelope';
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const prompt = Buffer.concat(chunks).toString('utf8');

if (mode === 'exit3') {
  for (let i = 1; i <= 30; i++) process.stderr.write(`stderr line ${i}\n`);
  process.exit(3);
} else if (mode === 'garbage') {
  process.stdout.write('I looked at the code and it seems fine to me.\n');
} else if (mode === 'hang') {
  setInterval(() => {}, 1000);
} else {
  const answer = {
    conclusion: 'approve',
    findings: [],
    fullReport: JSON.stringify({
      role: process.env.REVIEW_LOOP_ROLE,
      model: process.env.REVIEW_LOOP_MODEL,
      round: process.env.REVIEW_LOOP_ROUND,
      contextDir: process.env.REVIEW_LOOP_CONTEXT_DIR,
      name: process.env.REVIEW_LOOP_AGENT_NAME,
      home: process.env.HOME,
      cwd: process.cwd(),
      promptLength: prompt.length,
      githubToken: process.env.GITHUB_TOKEN ?? null,
    }),
  };
  process.stdout.write('Reviewing…\nBEGIN_JSON\n{"echo":"template"}\nEND_JSON\n');
  process.stdout.write(`Done.\nBEGIN_JSON\n${JSON.stringify(answer)}\nEND_JSON\n`);
}
