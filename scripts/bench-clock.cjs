// Loaded into the bundled action by `npm run bench` (NODE_OPTIONS=--require): prefixes each line
// the action prints with the milliseconds since it started, so the bench can time one phase
// (a review round) from the outside without timing code in the product.
const started = Date.now();
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) =>
  write(String(chunk).split('\n').map((l) => (l ? `[+${Date.now() - started}] ${l}` : l)).join('\n'), ...rest);
