import { describe, expect, it } from 'vitest';
import { makeWorkspace, serverForTests } from '../test-support/workspace.js';
import { metricsPath } from './observability.js';

const sdk = `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n`;
const workspace = () =>
  makeWorkspace({
    'handlers/kept_handler.ts':
      `${sdk}const kept = [];\n` +
      `router.get('/grow', () => { kept.push(Buffer.alloc(32 << 20, 1)); return { n: kept.length }; });\n`,
    'handlers/lean_handler.py':
      'from fastapi import APIRouter\nrouter = APIRouter()\n\n' + '@router.get("/ping")\ndef ping():\n    return {}\n',
  });

/** The value of `name{module="<module>"}` in a scrape, undefined when absent. */
const moduleSample = (text: string, name: string, module = 'kept_handler.ts'): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{module="${module}"}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
};

describe('handler process memory', () => {
  const server = serverForTests(workspace, { HANDLER_MEMORY_MB: '256' });
  const scrape = async () => (await server.app.inject({ url: metricsPath })).body;

  it('shows the resident memory of each module beside the bound it is restarted at', async () => {
    await expect
      .poll(async () => moduleSample(await scrape(), 'handler_process_resident_bytes'))
      .toBeGreaterThan(1 << 20);
    const first = moduleSample(await scrape(), 'handler_process_resident_bytes')!;
    expect(moduleSample(await scrape(), 'handler_process_memory_limit_bytes')).toBe(2 * 256 * 2 ** 20);
    // Buffers live outside the JavaScript heap: the figure is the process's, not V8's.
    const grown = await server.app.inject({ url: '/api/adaptive/kept/grow' });
    expect(grown.statusCode, grown.body).toBe(200);
    await expect
      .poll(async () => moduleSample(await scrape(), 'handler_process_resident_bytes'), { timeout: 5000 })
      .toBeGreaterThan(first + (24 << 20));
  });

  it("shows a Python module's worker too", async () => {
    const python = async () => moduleSample(await scrape(), 'handler_process_resident_bytes', 'lean_handler.py');
    await expect.poll(python, { timeout: 20_000 }).toBeGreaterThan(1 << 20);
    expect(moduleSample(await scrape(), 'handler_process_memory_limit_bytes', 'lean_handler.py')).toBe(
      2 * 256 * 2 ** 20,
    );
  }, 30_000);
});
