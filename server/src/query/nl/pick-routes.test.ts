import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { buildServer } from '../../main/app.js';

const url = '/api/v1/query/natural-language';
const sourcesYaml = `# A logistics workspace: "Malmö" is a warehouse's city and a shipment's destination.
sources:
  - name: logistics
    type: object-storage
    description: Warehouses and shipments (CSV)
    connector: folder
    path: lake
natural_language:
  relationships:
    - from: logistics.shipments.warehouse_id
      to: logistics.warehouses.id
`;

describe('picking a candidate of an ambiguous question, and saving it as a synonym', () => {
  let app: FastifyInstance;
  let workspace: string;
  let sourcesFile: string;
  const ask = async (payload: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await app.inject({ method: 'POST', url, payload: payload as object });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-nl-pick-'));
    fs.mkdirSync(path.join(workspace, 'query', 'lake'), { recursive: true });
    sourcesFile = path.join(workspace, 'query', 'sources.yaml');
    fs.writeFileSync(sourcesFile, sourcesYaml);
    fs.writeFileSync(
      path.join(workspace, 'query', 'lake', 'warehouses.csv'),
      'id,name,city\n1,Harbour,Malmö\n2,North,Oslo\n',
    );
    fs.writeFileSync(
      path.join(workspace, 'query', 'lake', 'shipments.csv'),
      'id,warehouse_id,dest_city\n1,1,Malmö\n2,2,Riga\n3,1,Malmö\n4,2,Malmö\n',
    );
    const config = loadConfig(
      { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', DATA_DIR: `${workspace}/.adaptive` },
      { workspace },
    );
    app = await buildServer(config, { logger: pino({ level: 'silent' }) });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('answers the pick, proposes the synonym with the comments kept, and uses it once saved', async () => {
    const question = 'How many are in Malmö?';
    const refused = await ask({ question });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'NL_AMBIGUOUS' });
    expect((refused.body.candidates as string[]).sort()).toEqual(['shipments.dest_city', 'warehouses.city']);

    const picked = await ask({ question, prefer: ['warehouses.city'] });
    expect(picked.status).toBe(200);
    expect(Object.values((picked.body.results as Record<string, unknown>[])[0])).toEqual([1]);
    const synonyms = picked.body.synonyms as { words: string[]; means: string; value: string }[];
    expect(synonyms).toEqual([{ words: ['malmö'], means: 'logistics.warehouses.city', value: 'Malmö' }]);

    const proposal = await app.inject({ method: 'POST', url: `${url}/synonym`, payload: synonyms[0] });
    expect(proposal.statusCode).toBe(200);
    const { path: file, added, content } = proposal.json<{ path: string; added: string; content: string }>();
    expect(file).toBe('query/sources.yaml');
    expect(added).toBe('  synonyms:\n    - words: [malmö]\n      means: logistics.warehouses.city\n      value: Malmö');
    expect(content).toBe(`${sourcesYaml}${added}\n`);
    // Proposing does not write: the question is still ambiguous until the file is saved.
    expect((await ask({ question })).status).toBe(422);

    fs.writeFileSync(sourcesFile, content);
    const settled = await ask({ question });
    expect(settled.status).toBe(200);
    expect(Object.values((settled.body.results as Record<string, unknown>[])[0])).toEqual([1]);
    expect(settled.body.synonyms).toBeUndefined();
  });

  it('keeps answering with the previous hints when a saved sources.yaml does not read', async () => {
    const before = fs.readFileSync(sourcesFile, 'utf8');
    try {
      fs.writeFileSync(sourcesFile, `${sourcesYaml}  synonyms:\n    - words: [x]\n      unknown_key: 1\n`);
      const answered = await ask({ question: 'How many warehouses are there?' });
      expect(answered.status).toBe(200);
      expect(Object.values((answered.body.results as Record<string, unknown>[])[0])).toEqual([2]);
    } finally {
      fs.writeFileSync(sourcesFile, before);
    }
  });

  it('answers 400 {detail, code} to a prefer no source has, or that is not a list of names', async () => {
    const unknown = await ask({ question: 'How many are in Malmö?', prefer: ['warehouses.town'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'NL_PREFER_UNKNOWN',
      detail: expect.stringContaining('warehouses.town'),
    });
    for (const prefer of [[''], [{}], 'x'.repeat(400), Array.from({ length: 9 }, () => 'warehouses.city')]) {
      const bad = await ask({ question: 'How many are in Malmö?', prefer });
      expect(bad.status, JSON.stringify(prefer).slice(0, 40)).toBe(400);
      expect(bad.body).toHaveProperty('detail');
    }
  });

  it('answers 400 to a synonym naming no column of the sources, and leaves the file alone', async () => {
    const before = fs.readFileSync(sourcesFile, 'utf8');
    for (const payload of [
      { words: ['x'], means: 'logistics.warehouses.town', value: 'x' },
      { words: [], means: 'logistics.warehouses.city' },
      { words: ['x'], means: 'logistics', value: 'x' },
      { words: ['x'] },
    ]) {
      const response = await app.inject({ method: 'POST', url: `${url}/synonym`, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toHaveProperty('detail');
    }
    expect(fs.readFileSync(sourcesFile, 'utf8')).toBe(before);
  });
});
