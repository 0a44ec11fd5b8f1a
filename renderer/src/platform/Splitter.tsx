import type { PointerEvent } from 'react';
import './splitter.css';

export interface SplitterProps {
  /** `vertical` splits columns (drag left/right), `horizontal` splits rows. */
  orientation: 'vertical' | 'horizontal';
  /** The size being dragged, in pixels. */
  size: number;
  /** +1 when dragging right/down grows the size, -1 when it shrinks it. */
  direction: 1 | -1;
  min: number;
  max: number;
  onResize(size: number): void;
  label: string;
}

/** A drag handle between two panes. */
export function Splitter({ orientation, size, direction, min, max, onResize, label }: SplitterProps) {
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const start = orientation === 'vertical' ? event.clientX : event.clientY;
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const onMove = (move: globalThis.PointerEvent) => {
      const delta = (orientation === 'vertical' ? move.clientX : move.clientY) - start;
      onResize(Math.round(Math.min(max, Math.max(min, size + direction * delta))));
    };
    const onUp = () => {
      handle.removeEventListener('pointermove', onMove);
      handle.removeEventListener('pointerup', onUp);
    };
    handle.addEventListener('pointermove', onMove);
    handle.addEventListener('pointerup', onUp);
  };
  return (
    <div
      className={`splitter ${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      onPointerDown={onPointerDown}
    />
  );
}
