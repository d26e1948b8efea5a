// Held-out test of the is-path-inside case (never shown to the loop): a sibling folder whose name
// starts with the parent's is not inside it; real children are; a path is not inside itself.
const assert = require('node:assert');
const isPathInside = require('./');

assert.strictEqual(isPathInside('/srv/www-private/key.pem', '/srv/www'), false, 'sibling with a common prefix');
assert.strictEqual(isPathInside('/srv/wwwx', '/srv/www'), false, 'longer name, same start');
assert.strictEqual(isPathInside('/srv/www/../www-private', '/srv/www'), false, 'climbs out and back');
assert.strictEqual(isPathInside('/srv/www/a/b.txt', '/srv/www'), true, 'a real child');
assert.strictEqual(isPathInside('/srv/www', '/srv/www'), false, 'not inside itself');
console.log('ok');
