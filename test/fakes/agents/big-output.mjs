// Writes argv[2] bytes of 'x' to stdout and stderr, then a recognisable tail.
const n = Number(process.argv[2] ?? '100000');
const body = 'x'.repeat(n);
process.stdout.write(body);
process.stdout.write('<<STDOUT-END>>');
process.stderr.write(body);
process.stderr.write('<<STDERR-END>>');
