import { useCallback, useEffect, useState } from 'react';
import type {
  MockRuleSource,
  MockTableRoute,
  MockTableRow,
  MockTableRule,
  MockTableTarget,
  MockTableView,
  SpecModeInfo,
} from '../../../server/src/contract/index.js';
import { useWorkbench } from '../platform/workbench-context.js';

const sources: MockRuleSource[] = ['query', 'header', 'path', 'body'];
const keyHints: Record<MockRuleSource, string> = {
  query: 'status',
  header: 'x-tenant',
  path: 'id',
  body: '$.customer.tier',
};

/** `200`, `200/open` (a response and one of its examples) or `''` (the spec's default). */
export function targetValue(target: MockTableTarget): string {
  if (target.response === undefined) return target.example === undefined ? '' : `/${target.example}`;
  return `${target.response}${target.example === undefined ? '' : `/${target.example}`}`;
}

/** The target a {@link targetValue} names. */
export function targetOf(value: string): MockTableTarget {
  if (value === '') return {};
  const [response, example] = value.split('/', 2);
  return {
    ...(response === '' ? {} : { response: Number(response) }),
    ...(example === undefined ? {} : { example }),
  };
}

/** A select of the route's declared responses and their examples. */
function TargetSelect(props: {
  route: MockTableRoute;
  target: MockTableTarget;
  label: string;
  onChange(t: MockTableTarget): void;
}) {
  const { route, target, label, onChange } = props;
  const value = targetValue(target);
  // An example named without its response (`example: open` in the file) answers from the default response.
  const exampleOfDefault = value.startsWith('/');
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(targetOf(e.target.value))}>
      <option value="">spec default</option>
      {exampleOfDefault && <option value={value}>default {target.example}</option>}
      {route.responses
        .filter((r) => /^\d{3}$/.test(r.status))
        .flatMap((r) => [
          <option key={r.status} value={r.status}>
            {r.status}
          </option>,
          ...r.examples.map((name) => (
            <option key={`${r.status}/${name}`} value={`${r.status}/${name}`}>
              {r.status} {name}
            </option>
          )),
        ])}
    </select>
  );
}

/** A number input that leaves the setting out when emptied. */
function NumberField(props: { label: string; value?: number; min: number; max: number; onChange(v?: number): void }) {
  const { label, value, min, max, onChange } = props;
  return (
    <input
      className="mock-number"
      type="number"
      aria-label={label}
      min={min}
      max={max}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
    />
  );
}

/** The ordered rules of one route: add, remove, move up; the first that matches wins. */
function RulesEditor(props: { route: MockTableRoute; rules: MockTableRule[]; onChange(rules: MockTableRule[]): void }) {
  const { route, rules, onChange } = props;
  const set = (index: number, rule: MockTableRule) => onChange(rules.map((r, i) => (i === index ? rule : r)));
  const move = (index: number) => {
    const next = [...rules];
    [next[index - 1], next[index]] = [next[index], next[index - 1]];
    onChange(next);
  };
  return (
    <div className="mock-rules" aria-label={`Rules of ${route.key}`}>
      {rules.map((rule, i) => {
        const name = `Rule ${i + 1} of ${route.key}`;
        const { in: source, key, equals } = rule;
        return (
          <div className="mock-rule" key={i}>
            <span className="muted">{i + 1}. when</span>
            <select
              aria-label={`${name}: source`}
              value={source}
              onChange={(e) => set(i, { ...rule, in: e.target.value as MockRuleSource })}
            >
              {sources.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <input
              aria-label={`${name}: key`}
              placeholder={keyHints[source]}
              value={key}
              onChange={(e) => set(i, { ...rule, key: e.target.value })}
            />
            <span className="muted">=</span>
            <input
              aria-label={`${name}: value`}
              placeholder="(any value)"
              value={equals === undefined ? '' : String(equals)}
              onChange={(e) => {
                const { equals: _old, ...rest } = rule;
                set(i, e.target.value === '' ? rest : { ...rest, equals: e.target.value });
              }}
            />
            <span className="muted">answer</span>
            <TargetSelect
              route={route}
              target={rule}
              label={`${name}: answer`}
              onChange={(t) => set(i, { in: source, key, ...(equals === undefined ? {} : { equals }), ...t })}
            />
            <button type="button" disabled={i === 0} onClick={() => move(i)} aria-label={`Move ${name} up`}>
              ↑
            </button>
            <button
              type="button"
              onClick={() => onChange(rules.filter((_, j) => j !== i))}
              aria-label={`Remove ${name}`}
            >
              ✕
            </button>
          </div>
        );
      })}
      <button type="button" onClick={() => onChange([...rules, { in: 'query', key: '' }])}>
        Add rule
      </button>
    </div>
  );
}

/** A row without a setting is left out of the file. */
export function compact(row: MockTableRow): MockTableRow | undefined {
  const entries = Object.entries(row).filter(([k, v]) => v !== undefined && !(k === 'rules' && (v as []).length === 0));
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as MockTableRow);
}

/** One route: its answer, status override, latency, error rate, and its rules below it when opened. */
function RouteRow(props: { route: MockTableRoute; row: MockTableRow; onChange(row: MockTableRow): void }) {
  const { route, row, onChange } = props;
  const [open, setOpen] = useState((row.rules?.length ?? 0) > 0);
  const rate = row.errorRate === undefined ? undefined : Math.round(row.errorRate * 1000) / 10;
  return (
    <>
      <tr data-route={route.key}>
        <td className="mock-spec">{route.key}</td>
        <td>
          <TargetSelect
            route={route}
            target={row}
            label={`Answer of ${route.key}`}
            onChange={(t) => onChange({ ...row, response: t.response, example: t.example })}
          />
        </td>
        <td>
          <NumberField
            label={`Status of ${route.key}`}
            value={row.status}
            min={100}
            max={599}
            onChange={(status) => onChange({ ...row, status })}
          />
        </td>
        <td>
          <NumberField
            label={`Latency of ${route.key}`}
            value={typeof row.delay === 'number' ? row.delay : row.delay?.[0]}
            min={0}
            max={600000}
            onChange={(delay) => onChange({ ...row, delay })}
          />
        </td>
        <td>
          <NumberField
            label={`Error rate of ${route.key}`}
            value={rate}
            min={0}
            max={100}
            onChange={(percent) => onChange({ ...row, errorRate: percent === undefined ? undefined : percent / 100 })}
          />
        </td>
        <td>
          <button
            type="button"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            aria-label={`Rules of ${route.key}`}
          >
            Rules ({row.rules?.length ?? 0})
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6}>
            <RulesEditor route={route} rules={row.rules ?? []} onChange={(rules) => onChange({ ...row, rules })} />
          </td>
        </tr>
      )}
    </>
  );
}

interface RouteTableViewProps {
  spec: SpecModeInfo;
  onClose(): void;
  onDone(text: string): void;
  onError(error: unknown): void;
}

/**
 * The mock table of one spec (`specs/<name>.mock.yaml`): per route the answer, a status, a latency, an error rate
 * and ordered rules. "Apply" has the server check the rows and saves the file through the file API (the gateway
 * reloads it); the contract itself is never edited.
 */
export function RouteTableView({ spec, onClose, onDone, onError }: RouteTableViewProps) {
  const { api } = useWorkbench();
  const [view, setView] = useState<MockTableView>();
  const [rows, setRows] = useState<Record<string, MockTableRow>>({});
  const load = useCallback(() => {
    api.mockTable(spec.mount).then((loaded) => {
      setView(loaded);
      setRows(Object.fromEntries(loaded.routes.map((r) => [r.key, r.row ?? {}])));
    }, onError);
  }, [api, spec.mount, onError]);
  useEffect(load, [load]);

  const apply = async () => {
    if (!view) return;
    const routes: Record<string, MockTableRow> = {};
    for (const [key, row] of Object.entries(rows)) {
      const kept = compact({ ...row, rules: row.rules?.filter((r) => r.key !== '' || r.in === 'body') });
      if (kept) routes[key] = kept;
    }
    try {
      const proposal = await api.proposeMockTable({ mount: spec.mount, routes });
      await api.write(proposal.path, proposal.proposed);
      onDone(`${proposal.path} saved; the gateway reloads it`);
    } catch (error) {
      onError(error);
    }
  };

  return (
    <div className="route-table-view">
      <div className="toolbar">
        <span>
          Routes of <code>{spec.path}</code> {view && <span className="muted">({view.path})</span>}
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => void apply()} disabled={!view}>
          Apply
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {view?.problem && (
        <div className="banner error" role="alert">
          {view.path}: {view.problem}
        </div>
      )}
      <table className="grid mock-routes" aria-label="Mock table">
        <thead>
          <tr>
            <th>Route</th>
            <th>Answer</th>
            <th>Status</th>
            <th>Latency ms</th>
            <th>Error %</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {view?.routes.map((route) => (
            <RouteRow
              key={route.key}
              route={route}
              row={rows[route.key] ?? {}}
              onChange={(row) => setRows((all) => ({ ...all, [route.key]: row }))}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
