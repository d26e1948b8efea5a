// A parent process that runs a child through runProcess, to test what happens to
// the child's process group when the parent is terminated.
// argv: <bundled process module> <pid file>. The child writes "<parent pid> <sh pid> <sleep pid>"
// to the pid file and then waits; the parent waits for runProcess forever.
const [modulePath, pidFile] = process.argv.slice(2);
const { runProcess } = await import(modulePath);
const script = `sleep 100 & echo "$PPID $$ $!" > '${pidFile}.tmp' && mv '${pidFile}.tmp' '${pidFile}'; sleep 100`;
await runProcess({ command: 'sh', args: ['-c', script], cwd: '/', env: process.env, timeoutMs: 60_000 });
process.stdout.write('runProcess returned\n');
