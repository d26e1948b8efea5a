// Held-out test of the negotiator case (never shown to the loop): among entries of equal quality,
// the one listed first in the header wins, in all three parsers the PR touched.
const assert = require('node:assert');
const Negotiator = require('./');

const ask = (headers) => new Negotiator({ headers });

assert.deepStrictEqual(
  ask({ 'accept-charset': 'utf-8;q=0.8, iso-8859-1;q=0.8' }).charsets(['iso-8859-1', 'utf-8']),
  ['utf-8', 'iso-8859-1'],
  'charsets: equal q keeps header order',
);
assert.deepStrictEqual(
  ask({ 'accept-encoding': 'gzip;q=0.8, deflate;q=0.8' }).encodings(['deflate', 'gzip']),
  ['gzip', 'deflate'],
  'encodings: equal q keeps header order',
);
assert.deepStrictEqual(
  ask({ 'accept-language': 'en;q=0.8, fr;q=0.8' }).languages(['fr', 'en']),
  ['en', 'fr'],
  'languages: equal q keeps header order',
);
console.log('ok');
