import type { AnswerMode } from '../../contract/index.js';

export type { AnswerMode };

/**
 * The response header naming the mode that produced an answer of a gateway route (`static`, `dynamic`,
 * `stateful`, `proxy`, `handler`); the workbench's requests panel shows it. Its values are constant strings,
 * so marking an answer allocates nothing.
 */
export const modeHeader = 'x-adaptive-mode';
