/**
 * Scratchpad compressor: one huge tool result into an 8k-token budget, against the naive approach
 * (tokenize everything, keep the first 60% / last 40% of the tokens, decode), in the same run;
 * and re-compressing an unchanged 100k-token scratchpad with the memoized counts.
 *
 *   npx tsx bench/compressor.ts            # print the tables
 *   npx tsx bench/compressor.ts --write    # also refresh the results in docs/benchmarks/compressor.md
 *
 * Environment: BENCH_SIZES_MB (default "1,10,100"), BENCH_SHAPES (default
 * "log,json,json-nested,ndjson,csv,text").
 * Targets (issue 3): 10 MB into 8k tokens ≤ 30 ms; cost growing with one linear scan, not with
 * tokenizing the input; unchanged 100k-token scratchpad ≤ 1 ms.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { AssistantMessage, ChatMessage, ToolMessage } from '@agentdesk/providers';
import {
  ScratchpadCompressor,
  createTokenCounter,
  omissionMarker,
  truncationNotice,
} from '@agentdesk/compressor';

const BUDGET_TOKENS = 8000;
const MEGABYTE = 1_000_000;
const documentPath = 'docs/benchmarks/compressor.md';
const writeDocument = process.argv.includes('--write');
const sizes = (process.env['BENCH_SIZES_MB'] ?? '1,10,100').split(',').map(Number);
const shapes = (process.env['BENCH_SHAPES'] ?? 'log,json,json-nested,ndjson,csv,text').split(',') as Shape[];

type Shape = 'log' | 'json' | 'json-nested' | 'ndjson' | 'csv' | 'text';

/** One order as a JSON object. */
function orderJson(index: number): string {
  return `{"id":${index},"customer":"Customer ${index % 5000}","email":"c${index}@example.com","total":${((index * 7919) % 100000) / 100},"status":"${index % 3 === 0 ? 'paid' : 'open'}","tags":["a","b"]}`;
}

/** The piece of `shape` output for record `index` (with what opens the document on the first). */
function piece(shape: Shape, index: number): string {
  switch (shape) {
    case 'log':
      return `2026-11-30T12:${String(index % 60).padStart(2, '0')}:07Z INFO api request_id=${index} user=u${index % 977} path=/v1/orders/${index * 7} status=200 latency=${(index * 37) % 900}ms\n`;
    case 'json':
      return `${index === 0 ? '[' : ','}${orderJson(index)}`;
    case 'json-nested':
      return `${index === 0 ? '{"status":"ok","data":{"page":1,"items":[' : ','}${orderJson(index)}`;
    case 'ndjson':
      return `${orderJson(index)}\n`;
    case 'csv':
      return `${index === 0 ? 'id,customer,email,total,status,note\n' : ''}${index},Customer ${index % 5000},c${index}@example.com,${((index * 7919) % 100000) / 100},${index % 3 === 0 ? 'paid' : 'open'},"said ""ok"", thanks"\n`;
    case 'text':
      return `word${index % 1000} lorem ipsum dolor sit amet, consectetur adipiscing elit ${index} `;
  }
}

/** What closes the document after the last piece. */
const closing: Record<Shape, string> = {
  log: '',
  json: ']',
  'json-nested': '],"more":false},"total":null}',
  ndjson: '',
  csv: '',
  text: '',
};

/** Builds about `characters` characters of one kind of tool output. */
function toolOutput(shape: Shape, characters: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const next = piece(shape, index);
    parts.push(next);
    length += next.length;
  }
  parts.push(closing[shape]);
  return parts.join('');
}

function scratchpad(result: string, id = 'call_1'): [AssistantMessage, ToolMessage] {
  return [
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'sql', arguments: '{"query":"select * from orders"}' }],
    },
    { role: 'tool', toolCallId: id, toolName: 'sql', content: result },
  ];
}

/** The naive approach: tokenize the whole text, keep the first 60% / last 40% of the tokens, decode. */
function naiveTruncate(text: string, targetTokens: number): string {
  const notice = truncationNotice('en');
  const marker = `\n\n${omissionMarker({ characters: text.length }, 'en')}\n\n`;
  const plain = { disallowedSpecial: new Set<string>() };
  const available = targetTokens - encode(notice, plain).length - encode(marker, plain).length - 10;
  const tokens = encode(text, plain);
  if (tokens.length <= targetTokens) return text;
  const head = Math.floor(available * 0.6);
  return (
    notice + decode(tokens.slice(0, head)) + marker + decode(tokens.slice(tokens.length - (available - head)))
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const format = (value: number): string =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

interface TruncationRow {
  shape: Shape;
  megabytes: number;
  fastMedian: number;
  fastMinimum: number;
  fastFirst: number;
  naive: number;
  tokensAfter: number;
  strategy: string;
}

async function measureTruncation(shape: Shape, megabytes: number): Promise<TruncationRow> {
  const text = toolOutput(shape, megabytes * MEGABYTE);
  const runs = megabytes >= 100 ? 7 : 15;
  const durations: number[] = [];
  let tokensAfter = 0;
  let strategy = '';
  for (let run = 0; run < runs; run++) {
    // A fresh compressor and fresh message objects: nothing memoized from the previous run.
    const compressor = new ScratchpadCompressor({ model: 'gpt-4o' });
    const entries = scratchpad(text);
    const started = performance.now();
    const { messages, event } = await compressor.compress({ entries, budgetTokens: BUDGET_TOKENS });
    durations.push(performance.now() - started);
    tokensAfter = compressor.counter.countMessages(messages);
    strategy = event.truncatedItems[0]?.strategy ?? 'none';
    if (tokensAfter > BUDGET_TOKENS) throw new Error(`over budget: ${tokensAfter}`);
  }
  const naiveStarted = performance.now();
  naiveTruncate(text, BUDGET_TOKENS);
  const naive = performance.now() - naiveStarted;
  const warm = durations.slice(1);
  return {
    shape,
    megabytes,
    fastMedian: median(warm),
    fastMinimum: Math.min(...warm),
    fastFirst: durations[0]!,
    naive,
    tokensAfter,
    strategy,
  };
}

interface CacheRow {
  scenario: string;
  tokens: number;
  cold: number;
  warmMedian: number;
  method: string;
}

/** About 100k tokens over 20 call/result pairs of logs. */
function hundredThousandTokenScratchpad(): ChatMessage[] {
  return Array.from({ length: 20 }, (_, index) =>
    scratchpad(toolOutput('log', 13_000).replaceAll('request_id=', `r${index}=`), `call_${index}`),
  ).flat();
}

async function measureCache(
  scenario: string,
  entries: ChatMessage[],
  budgetTokens: number,
): Promise<CacheRow> {
  const compressor = new ScratchpadCompressor({ model: 'gpt-4o' });
  const coldStarted = performance.now();
  const first = await compressor.compress({ entries, budgetTokens });
  const cold = performance.now() - coldStarted;
  const warm: number[] = [];
  for (let run = 0; run < 200; run++) {
    const started = performance.now();
    await compressor.compress({ entries, budgetTokens });
    warm.push(performance.now() - started);
  }
  return {
    scenario,
    tokens: first.event.tokensBefore,
    cold,
    warmMedian: median(warm),
    method: first.event.method,
  };
}

async function main(): Promise<void> {
  createTokenCounter().countText('warm up the tokenizer tables');
  const truncationRows: TruncationRow[] = [];
  for (const shape of shapes) {
    for (const megabytes of sizes) {
      const row = await measureTruncation(shape, megabytes);
      truncationRows.push(row);
      console.log(
        `${shape} ${megabytes} MB: fast ${format(row.fastMedian)} ms, naive ${format(row.naive)} ms`,
      );
    }
  }

  const pad = hundredThousandTokenScratchpad();
  const cacheRows = [
    await measureCache('100k-token scratchpad within a 128k budget (unchanged)', pad, 128_000),
    await measureCache(
      '100k-token scratchpad + a 10 MB newest result, 128k budget (cut once, then memoized)',
      [...pad, ...scratchpad(toolOutput('log', 10 * MEGABYTE), 'call_newest')],
      128_000,
    ),
  ];

  const header = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; budget ${BUDGET_TOKENS} tokens (o200k).`;
  const truncationTable = [
    '| input | size | compressor median ms | min ms | first run ms | naive ms | naive / compressor | compressor ms per MB | tokens after | cut |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...truncationRows.map(
      (row) =>
        `| ${row.shape} | ${row.megabytes} MB | ${format(row.fastMedian)} | ${format(row.fastMinimum)} | ${format(row.fastFirst)} | ${format(row.naive)} | ${format(row.naive / row.fastMedian)}× | ${format(row.fastMedian / row.megabytes)} | ${row.tokensAfter} | ${row.strategy} |`,
    ),
  ].join('\n');
  const cacheTable = [
    '| scenario | tokens before | first compression ms | re-compression median ms (200 runs) | method |',
    '|---|---:|---:|---:|---|',
    ...cacheRows.map(
      (row) =>
        `| ${row.scenario} | ${row.tokens.toLocaleString('en-US')} | ${format(row.cold)} | ${row.warmMedian.toFixed(3)} | ${row.method} |`,
    ),
  ].join('\n');
  const section = `<!-- results:start -->\n${header}\n\n${truncationTable}\n\n${cacheTable}\n<!-- results:end -->`;
  console.log(`\n${header}\n\n${truncationTable}\n\n${cacheTable}`);
  if (writeDocument) {
    const document = readFileSync(documentPath, 'utf8');
    writeFileSync(
      documentPath,
      document.replace(/<!-- results:start -->[\s\S]*<!-- results:end -->/, section),
    );
    console.log(`\nupdated ${documentPath}`);
  }
}

await main();
