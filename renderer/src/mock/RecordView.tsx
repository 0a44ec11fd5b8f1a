import { DiffEditor } from '@monaco-editor/react';
import { useCallback, useEffect, useState } from 'react';
import type { RecordedExchangeInfo, SpecEditProposal, SpecModeInfo } from '../../../server/src/contract/index.js';
import { useWorkbench } from '../platform/workbench-context.js';
import { languageOf } from '../editor/languages.js';
import '../editor/monaco-setup.js';

/** The proposed spec against the file, in Monaco's diff editor, with Apply and Discard. */
function ProposalDiff(props: { proposal: SpecEditProposal; onApply(): void; onDiscard(): void }) {
  const { proposal, onApply, onDiscard } = props;
  const { colorScheme } = useWorkbench();
  return (
    <div className="record-diff">
      <div className="toolbar">
        <span>
          Example <code>{proposal.name}</code> in {proposal.path}
        </span>
        <span className="spacer" />
        <button type="button" onClick={onApply}>
          Apply
        </button>
        <button type="button" onClick={onDiscard}>
          Discard
        </button>
      </div>
      {proposal.violations && proposal.violations.length > 0 && (
        <div className="banner error" role="alert" aria-label="Example breaks its schema">
          This example breaks its schema: {proposal.violations.map((v) => `${v.path} ${v.rule}`).join('; ')}
        </div>
      )}
      <div className="record-diff-editor" aria-label="Proposed change">
        <DiffEditor
          original={proposal.original}
          modified={proposal.proposed}
          language={languageOf(proposal.path)}
          theme={colorScheme === 'dark' ? 'vs-dark' : 'vs'}
          options={{ readOnly: true, renderSideBySide: false, automaticLayout: true, minimap: { enabled: false } }}
        />
      </div>
    </div>
  );
}

interface RecordViewProps {
  spec: SpecModeInfo;
  onClose(): void;
  onApply(proposal: SpecEditProposal, done: string): Promise<void>;
  onError(error: unknown): void;
}

/**
 * The upstream answers the proxy kept for one spec. Choosing one shows the proposed spec (the answer as a
 * named example) against the file in Monaco's diff editor; "Apply" saves it like any edit.
 */
export function RecordView({ spec, onClose, onApply, onError }: RecordViewProps) {
  const { api } = useWorkbench();
  const [exchanges, setExchanges] = useState<RecordedExchangeInfo[]>();
  const [chosen, setChosen] = useState<RecordedExchangeInfo>();
  const [name, setName] = useState('');
  const [proposal, setProposal] = useState<SpecEditProposal>();

  const load = useCallback(() => {
    api.recordings(spec.mount).then((r) => setExchanges(r.exchanges), onError);
  }, [api, spec.mount, onError]);
  useEffect(load, [load]);

  const propose = (exchange: RecordedExchangeInfo) => {
    setChosen(exchange);
    const named = name.trim();
    api
      .proposeRecording({ mount: spec.mount, id: exchange.id, ...(named ? { name: named } : {}) })
      .then(setProposal, (error: unknown) => {
        setProposal(undefined);
        onError(error);
      });
  };

  return (
    <div className="record-view" aria-label={`Recorded answers of ${spec.path}`}>
      <div className="toolbar">
        <strong>Record · {spec.path}</strong>
        <span className="spacer" />
        <input
          aria-label="Example name"
          placeholder="recorded-<n>"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="button" onClick={load} aria-label="Refresh recorded answers">
          Refresh
        </button>
        <button type="button" onClick={onClose}>
          Back
        </button>
      </div>
      {exchanges?.length === 0 && (
        <div className="placeholder">No upstream answers yet: call the spec's routes, then refresh.</div>
      )}
      <table className="grid recordings" aria-label="Recorded exchanges">
        <tbody>
          {exchanges?.map((e) => (
            <tr
              key={e.id}
              className={e.id === chosen?.id ? 'selected' : ''}
              tabIndex={0}
              onClick={() => propose(e)}
              onKeyDown={(event) => event.key === 'Enter' && propose(e)}
            >
              <td className="method">{e.method}</td>
              <td className="url" title={e.url}>
                {e.url}
              </td>
              <td>{e.status}</td>
              <td className="muted">{e.violations > 0 ? `${e.violations} ⚠` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {proposal && (
        <ProposalDiff
          proposal={proposal}
          onApply={() =>
            onApply(proposal, `Example ${proposal.name} saved in ${proposal.path}`)
              .then(() => {
                setProposal(undefined);
                onClose();
              })
              .catch(onError)
          }
          onDiscard={() => setProposal(undefined)}
        />
      )}
    </div>
  );
}
