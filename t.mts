import { countTokens, encode, isWithinTokenLimit } from 'gpt-tokenizer/encoding/o200k_base';
import * as cl from 'gpt-tokenizer/encoding/cl100k_base';
const s = 'hello <|endoftext|> world <|im_start|>';
try { console.log(countTokens(s)); } catch (e) { console.log('throws', (e as Error).message); }
console.log(countTokens(s, { disallowedSpecial: new Set() }), encode(s, { disallowedSpecial: new Set() }));
console.log(cl.countTokens(s, { disallowedSpecial: new Set() }));
console.log(countTokens('hello world'), isWithinTokenLimit('hello world '.repeat(1000), 10, { disallowedSpecial: new Set() }));
const big = 'x'.repeat(10_000_000);
let t=performance.now(); console.log(countTokens(big.slice(0,1_000_000), { disallowedSpecial: new Set() }), performance.now()-t);
const txt = Array.from({length:200000},(_, i)=>`row ${i}, name_${i}, ${Math.random()}`).join('\n');
t=performance.now(); const n=countTokens(txt, { disallowedSpecial: new Set() }); console.log(txt.length, n, txt.length/n, performance.now()-t);
t=performance.now(); isWithinTokenLimit(txt, 100, { disallowedSpecial: new Set() }); console.log('within', performance.now()-t);
console.log(countTokens('😀😀😀🇫🇷', { disallowedSpecial: new Set() }), '😀😀😀🇫🇷'.length, countTokens('\ud800abc', { disallowedSpecial: new Set() }));
