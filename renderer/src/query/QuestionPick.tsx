import { useState } from 'react';
import type { SynonymProposal, SynonymSuggestion } from '../../../server/src/contract/index.js';
import { useWorkbench } from '../platform/workbench-context.js';
import { queryApi } from './query-api.js';

/** "Did you mean …": one button per candidate column of an ambiguous question; a click asks it again with that one. */
export function CandidatePicker({ candidates, onPick }: { candidates: string[]; onPick(candidate: string): void }) {
  return (
    <div className="question-pick" role="group" aria-label="Did you mean">
      <span>Ask again with:</span>
      {candidates.map((candidate) => (
        <button key={candidate} type="button" onClick={() => onPick(candidate)}>
          {candidate}
        </button>
      ))}
    </div>
  );
}

type OfferState =
  | { step: 'offered' }
  | { step: 'proposed'; proposal: SynonymProposal }
  | { step: 'saved'; path: string }
  | { step: 'failed'; error: string };

/**
 * After an answer obtained by a pick: offers the pick as a synonym, shows the exact YAML it adds to sources.yaml and,
 * on confirm, saves the file through the workspace file API (the server reads its hints again on the next question).
 */
export function SynonymOffer({ synonym }: { synonym: SynonymSuggestion }) {
  const { api, notify } = useWorkbench();
  const [state, setState] = useState<OfferState>({ step: 'offered' });
  const fail = (e: unknown) => setState({ step: 'failed', error: (e as Error).message });
  const propose = () =>
    queryApi.proposeSynonym(synonym).then((proposal) => setState({ step: 'proposed', proposal }), fail);
  const save = async (path: string, content: string) => {
    try {
      await api.write(path, content);
      setState({ step: 'saved', path });
      notify(`Synonym saved to ${path}`);
    } catch (e) {
      fail(e);
    }
  };
  const words = `"${synonym.words.join('", "')}"`;
  const meaning = `${synonym.means}${synonym.value === undefined ? '' : ` = ${synonym.value}`}`;

  if (state.step === 'saved')
    return (
      <div className="synonym-offer" role="status">
        Saved to {state.path}: {words} now means {meaning}; the next question uses it.
      </div>
    );
  if (state.step === 'proposed') {
    const { path, added, content } = state.proposal;
    if (added === '')
      return (
        <div className="synonym-offer" role="status">
          {path ?? 'sources.yaml'} already declares this synonym.
        </div>
      );
    return (
      <div className="synonym-offer">
        <span>Adds to {path ?? 'sources.yaml'}:</span>
        <pre className="generated-query" aria-label="Synonym YAML">
          {added}
        </pre>
        {path ? (
          <button type="button" onClick={() => void save(path, content)}>
            Save to {path}
          </button>
        ) : (
          <span>sources.yaml is outside the workspace: add these lines to it by hand.</span>
        )}
        <button type="button" onClick={() => setState({ step: 'offered' })}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className="synonym-offer">
      <span>
        Picked {meaning} for {words}.
      </span>
      <button type="button" onClick={() => void propose()} title="Show the YAML this adds to sources.yaml">
        Save as synonym
      </button>
      {state.step === 'failed' && (
        <span className="error" role="alert">
          {state.error}
        </span>
      )}
    </div>
  );
}
