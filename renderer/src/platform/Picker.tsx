import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import './picker.css';

/** One row of a {@link Picker}. */
export interface PickerItem {
  id: string;
  /** The row's main text, with the matched letters marked. */
  label: ReactNode;
  /** Grey text after it (a folder, a line of text). */
  detail?: ReactNode;
  /** Right-aligned (a shortcut). */
  hint?: string;
}

export interface PickerProps {
  /** The dialog's and the input's name: *Go to file*, *Command palette*. */
  label: string;
  placeholder: string;
  /** The rows for the text typed, already filtered and ordered by the parent. */
  items: PickerItem[];
  /** Said when there is no row (nothing matches, or still searching). */
  empty: string;
  /** Said under the rows (that there are more than shown). */
  note?: string;
  onQuery(query: string): void;
  onPick(item: PickerItem): void;
  onClose(): void;
}

/** The picker's keys: Up/Down/PageUp/PageDown move through `count` rows, Enter picks, Esc closes. */
function listKeys(count: number, current: number, move: (index: number) => void, pick: () => void, close: () => void) {
  return (event: KeyboardEvent) => {
    const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[event.key];
    if (step !== undefined) move(Math.max(0, Math.min(count - 1, current + step)));
    else if (event.key === 'Enter') pick();
    else if (event.key === 'Escape') close();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
}

/**
 * Puts the focus in `input` while the picker is open, and back where it was when it closes, unless what was
 * picked put it in the editor.
 */
function useFocusInside(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    input.current?.focus();
    return () => {
      if (opener?.isConnected && !document.activeElement?.closest('.monaco-editor')) opener.focus();
    };
  }, [input]);
}

/**
 * A picker over the workbench, as in editors' quick-open: a text field and a list of rows under it. Up/Down
 * move through the rows (the field keeps the focus and names the row as its active descendant), Enter picks,
 * Esc closes and gives the focus back to where it was. Quick-open, the command palette and the search across
 * files are all this one component.
 */
export function Picker(props: PickerProps) {
  const { items } = props;
  const [index, setIndex] = useState(0);
  const current = Math.min(index, Math.max(items.length - 1, 0));
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  useFocusInside(input);
  useEffect(() => {
    list.current?.children[current]?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const pick = (i: number) => {
    const item = items[i];
    if (!item) return;
    props.onClose();
    props.onPick(item);
  };
  const onKeyDown = listKeys(
    items.length,
    current,
    setIndex,
    () => pick(current),
    () => props.onClose(),
  );
  const optionId = (i: number) => `picker-option-${i}`;

  return (
    <div className="modal-backdrop picker-backdrop" onClick={() => props.onClose()}>
      <div
        className="picker"
        role="dialog"
        aria-modal="true"
        aria-label={props.label}
        onClick={(e) => e.stopPropagation()}
      >
        <input
          ref={input}
          className="picker-input"
          role="combobox"
          aria-label={props.label}
          aria-expanded="true"
          aria-controls="picker-list"
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(current) : undefined}
          placeholder={props.placeholder}
          spellCheck={false}
          onChange={(e) => {
            setIndex(0);
            props.onQuery(e.currentTarget.value);
          }}
          onKeyDown={onKeyDown}
        />
        <ul ref={list} id="picker-list" className="picker-list" role="listbox" aria-label={props.label}>
          {items.map((item, i) => (
            <li
              key={item.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className={i === current ? 'selected' : undefined}
              onMouseMove={() => setIndex(i)}
              onClick={() => pick(i)}
            >
              <span className="picker-label">{item.label}</span>
              {item.detail && <span className="picker-detail">{item.detail}</span>}
              {item.hint && <kbd className="picker-hint">{item.hint}</kbd>}
            </li>
          ))}
        </ul>
        {items.length === 0 && <div className="picker-note">{props.empty}</div>}
        {items.length > 0 && props.note && <div className="picker-note">{props.note}</div>}
      </div>
    </div>
  );
}
