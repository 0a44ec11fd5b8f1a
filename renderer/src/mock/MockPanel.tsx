import { useCallback, useEffect, useState } from 'react';
import type { MockOverview, SpecEditProposal, SpecMode, SpecModeInfo } from '../../../server/src/contract/index.js';
import { useServerState, useSessionState, useWorkbench } from '../platform/workbench-context.js';
import { applyProposal } from './apply-proposal.js';
import { RecordView } from './RecordView.js';
import { RouteTableView } from './RouteTableView.js';
import './mock.css';

const modes: SpecMode[] = ['static', 'dynamic', 'stateful', 'proxy'];
const setByText: Record<SpecModeInfo['setBy'], string> = {
  workspace: 'workspace default',
  'x-mock': 'x-mock.examples',
  'x-adaptive-state': 'x-adaptive-state',
  'x-adaptive-proxy': 'x-adaptive-proxy',
};

/** What the panel last did, shown under its toolbar. */
interface Outcome {
  kind: 'info' | 'error';
  text: string;
}

interface SpecRowProps {
  spec: SpecModeInfo;
  onSwitch(spec: SpecModeInfo, mode: SpecMode, upstream?: string): void;
  onReset(mount: string): void;
  onRecord(spec: SpecModeInfo): void;
  onRoutes(spec: SpecModeInfo): void;
}

/** The mount's base URL on this server, with a button that copies it. */
function BaseUrl({ mount }: { mount: string }) {
  const url = `${window.location.origin}/api/adaptive/${mount}`;
  return (
    <div className="mock-base-url">
      <code>{url}</code>
      <button
        type="button"
        aria-label={`Copy the base URL of /${mount}`}
        onClick={() => void navigator.clipboard.writeText(url)}
      >
        Copy
      </button>
    </div>
  );
}

/** One spec: its mode (a switch), what sets it, and the actions of that mode. */
function SpecRow({ spec, onSwitch, onReset, onRecord, onRoutes }: SpecRowProps) {
  const [upstreams, setUpstreams] = useSessionState<Record<string, string>>('mock.upstreams', {});
  const [askingUpstream, setAskingUpstream] = useState(false);
  const upstream = upstreams[spec.path] ?? spec.upstream ?? 'http://127.0.0.1:4010';
  const name = spec.path.replace(/^specs\//, '');
  return (
    <tr data-spec={spec.path}>
      <td className="mock-spec" title={spec.path}>
        {name}
        <BaseUrl mount={spec.mount} />
      </td>
      <td>
        <select
          aria-label={`Mode of ${name}`}
          value={askingUpstream ? 'proxy' : spec.mode}
          onChange={(e) => {
            const mode = e.target.value as SpecMode;
            if (mode === 'proxy' && spec.upstream === undefined) setAskingUpstream(true);
            else {
              setAskingUpstream(false);
              onSwitch(spec, mode);
            }
          }}
        >
          {modes.map((mode) => (
            <option key={mode} value={mode}>
              {mode}
            </option>
          ))}
        </select>
        <div className="muted">set by {setByText[spec.setBy]}</div>
        {askingUpstream && (
          <form
            className="mock-upstream"
            onSubmit={(e) => {
              e.preventDefault();
              setAskingUpstream(false);
              onSwitch(spec, 'proxy', upstream);
            }}
          >
            <input
              aria-label={`Upstream URL of ${name}`}
              value={upstream}
              onChange={(e) => setUpstreams((all) => ({ ...all, [spec.path]: e.target.value }))}
            />
            <button type="submit">Proxy</button>
          </form>
        )}
      </td>
      <td className="mock-actions">
        <button type="button" onClick={() => onRoutes(spec)} aria-label={`Routes of ${name}`}>
          Routes
        </button>
        {spec.mode === 'stateful' && (
          <button type="button" onClick={() => onReset(spec.mount)} aria-label={`Reset the state of ${name}`}>
            Reset state
          </button>
        )}
        {spec.mode === 'proxy' && (
          <button type="button" onClick={() => onRecord(spec)} aria-label={`Record answers of ${name}`}>
            Record ({spec.recorded})
          </button>
        )}
      </td>
    </tr>
  );
}

/** Every loaded spec with its mode switch and actions. */
function SpecsTable({ specs, ...actions }: { specs: SpecModeInfo[] } & Omit<SpecRowProps, 'spec'>) {
  return (
    <table className="grid mock-specs" aria-label="Mock modes">
      <thead>
        <tr>
          <th>Spec</th>
          <th>Mode</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {specs.map((spec) => (
          <SpecRow key={spec.path} spec={spec} {...actions} />
        ))}
      </tbody>
    </table>
  );
}

/** The panel's toolbar: the workspace defaults, resetting every stateful mock, refreshing the list. */
function MockToolbar(props: { overview?: MockOverview; onResetAll(): void; onRefresh(): void }) {
  const { overview, onResetAll, onRefresh } = props;
  return (
    <div className="toolbar">
      <span className="muted">
        {overview
          ? `Workspace: ${overview.defaults.examples} examples, state ${overview.defaults.state ? 'on' : 'off'}`
          : 'Loading…'}
      </span>
      <span className="spacer" />
      <button type="button" onClick={onResetAll}>
        Reset all state
      </button>
      <button type="button" onClick={onRefresh} aria-label="Refresh mock modes">
        Refresh
      </button>
    </div>
  );
}

/**
 * The mock modes of the workspace's specs: which mode each answers in and what sets it, a switch that
 * edits the spec's root extension (a normal, undoable, saved edit of the file), the stateful mocks'
 * reset, and the recording of a proxied spec's upstream answers as examples.
 */
export default function MockPanel() {
  const workbench = useWorkbench();
  const { api } = workbench;
  const reloadCount = useServerState((s) => s.reloadCount);
  const [overview, setOverview] = useState<MockOverview>();
  const [outcome, setOutcome] = useSessionState<Outcome | undefined>('mock.outcome', undefined);
  const [recording, setRecording] = useSessionState<string | undefined>('mock.recording', undefined);
  const [routesOf, setRoutesOf] = useSessionState<string | undefined>('mock.routes', undefined);
  const fail = useCallback(
    (error: unknown) => setOutcome({ kind: 'error', text: (error as Error).message }),
    [setOutcome],
  );

  const refresh = useCallback(() => {
    api.mockOverview().then(setOverview, fail);
  }, [api, fail]);
  useEffect(refresh, [refresh, reloadCount]);

  const apply = async (proposal: SpecEditProposal, done: string) => {
    await applyProposal(workbench, proposal);
    setOutcome({ kind: 'info', text: done });
  };
  const onSwitch = (spec: SpecModeInfo, mode: SpecMode, upstream?: string) => {
    api
      .proposeMode({ path: spec.path, mode, ...(upstream === undefined ? {} : { upstream }) })
      .then((proposal) => apply(proposal, `${spec.path} switched to ${mode} (saved; Ctrl+Z in the editor undoes it)`))
      .catch(fail);
  };
  const onReset = (mount?: string) => {
    api
      .resetState(mount)
      .then((result) =>
        setOutcome({
          kind: 'info',
          text: result.reset.length > 0 ? `State reset: ${result.reset.join(', ')}` : 'No stateful mock to reset',
        }),
      )
      .catch(fail);
  };
  const recorded = overview?.specs.find((s) => s.mount === recording && s.mode === 'proxy');
  const tabled = overview?.specs.find((s) => s.mount === routesOf);

  return (
    <div className="panel-column mock-panel">
      <MockToolbar overview={overview} onResetAll={() => onReset()} onRefresh={refresh} />
      {outcome && (
        <div className={`banner ${outcome.kind}`} role="status">
          {outcome.text}
        </div>
      )}
      <div className="panel-scroll">
        {tabled ? (
          <RouteTableView
            spec={tabled}
            onClose={() => setRoutesOf(undefined)}
            onDone={(text) => setOutcome({ kind: 'info', text })}
            onError={fail}
          />
        ) : recorded ? (
          <RecordView
            spec={recorded}
            onClose={() => {
              setRecording(undefined);
              refresh();
            }}
            onApply={apply}
            onError={fail}
          />
        ) : (
          <SpecsTable
            specs={overview?.specs ?? []}
            onSwitch={onSwitch}
            onReset={onReset}
            onRecord={(s) => setRecording(s.mount)}
            onRoutes={(s) => setRoutesOf(s.mount)}
          />
        )}
        {overview?.specs.length === 0 && <div className="placeholder">No spec is loaded.</div>}
      </div>
    </div>
  );
}
