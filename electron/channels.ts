/**
 * The IPC channels between the main process and the preload bridge, in a module of their own: the
 * preload runs sandboxed, where Node's modules (which main-logic.ts uses) cannot be loaded.
 */
import type { MenuCommand } from '../server/src/contract/index.js';

/** IPC channels the preload bridge may invoke; anything else is refused in both processes. */
export const bridgeChannels = ['workspace:open', 'workspace:recent', 'workspace:open-recent', 'file:reveal'] as const;
export type BridgeChannel = (typeof bridgeChannels)[number];

/** True for the channels of {@link bridgeChannels}. */
export function isBridgeChannel(channel: unknown): channel is BridgeChannel {
  return typeof channel === 'string' && (bridgeChannels as readonly string[]).includes(channel);
}

/** The channel of each menu command the main process sends to the renderer: every command has one. */
export const menuEvents = {
  'new-spec': 'menu:new-spec',
  'new-handler': 'menu:new-handler',
} as const satisfies Record<MenuCommand, `menu:${MenuCommand}`>;
