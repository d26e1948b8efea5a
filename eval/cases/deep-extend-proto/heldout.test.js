// Held-out test of the deep-extend case (never shown to the loop): untrusted JSON with a
// `__proto__` key pollutes nothing, whether it is merged directly or sits inside an array.
const assert = require('node:assert');
const deepExtend = require('./');

deepExtend({}, JSON.parse('{"__proto__": {"pollutedTop": "yes"}}'));
assert.strictEqual({}.pollutedTop, undefined, 'a __proto__ key at the top level');

deepExtend({}, JSON.parse('{"list": [{"__proto__": {"pollutedInArray": "yes"}}]}'));
assert.strictEqual({}.pollutedInArray, undefined, 'a __proto__ key inside an array item');

deepExtend({}, JSON.parse('{"a": {"__proto__": {"pollutedNested": "yes"}}}'));
assert.strictEqual({}.pollutedNested, undefined, 'a __proto__ key one level down');

assert.deepStrictEqual(deepExtend({ a: { b: 1 } }, { a: { c: 2 } }), { a: { b: 1, c: 2 } }, 'still merges');
console.log('ok');
