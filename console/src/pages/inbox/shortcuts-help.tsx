import type { JSX } from 'preact';
import { Button, Dialog } from '../../ui/kit.js';
import { SHORTCUTS } from './inbox-commands.js';

/** The `?` dialog: every inbox key and what it does. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }): JSX.Element {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <table class="table shortcuts">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.command}>
              <td>
                {s.keys.map((key, i) => (
                  <>
                    {i > 0 ? ' or ' : null}
                    <kbd>{key}</kbd>
                  </>
                ))}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
          <tr>
            <td>
              <kbd>Esc</kbd>
            </td>
            <td>Leave the message box (then the keys above work again)</td>
          </tr>
        </tbody>
      </table>
      <p class="muted">The keys do nothing while you type in a field.</p>
      <div class="dialog-actions">
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
