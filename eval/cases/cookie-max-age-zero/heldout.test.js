// Held-out test of the cookie case (never shown to the loop): maxAge 0 is a value, not a missing
// option; it must reach the header, since Max-Age=0 is how a server deletes a cookie.
const assert = require('node:assert');
const cookie = require('./');

assert.strictEqual(cookie.serialize('sid', '', { maxAge: 0 }), 'sid=; Max-Age=0', 'maxAge 0');
assert.strictEqual(cookie.serialize('sid', 'x', { maxAge: 10 }), 'sid=x; Max-Age=10', 'maxAge 10');
assert.strictEqual(cookie.serialize('sid', 'x', {}), 'sid=x', 'no maxAge');
assert.throws(() => cookie.serialize('sid', 'x', { maxAge: 'soon' }), /maxAge/, 'invalid maxAge');
console.log('ok');
