import { generateSync } from 'json-schema-faker';
const schema = process.argv[2] === 'len' ? { type: 'string', minLength: 10, maxLength: 2 } : { type: 'string', pattern: '^(?!)$' };
for (let i = 0; i < 2000; i++) { const seed = Math.floor(Math.random() * 2 ** 32); console.log(seed); generateSync(schema, { seed, maxItems: 20, maxLength: 256, maxDefaultItems: 3, refDepthMax: 3, maxDepth: 8 }); }
console.log('done');
