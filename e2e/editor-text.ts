import { expect, type Page } from '@playwright/test';

/** The editor, once it shows a file and takes input. */
export function editor(page: Page) {
  return page.locator('.editor-host .monaco-editor');
}

/**
 * Replaces the whole text of the active editor by pasting it (typing would auto-indent every line):
 * select all, then a paste event with the text on the element that has the editor's focus.
 */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await editor(page).locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    document.activeElement?.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
  // The cursor ends after the paste, so its last line is in view.
  const lastLine = text.trim().split('\n').at(-1)!.trim();
  await expect(editor(page).locator('.view-lines')).toContainText(lastLine);
}
