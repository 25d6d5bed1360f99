import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Automation, AutomationAction, AutomationCondition, Member, Template } from '../../api/types.js';
import { useAction } from '../../ui/hooks.js';
import { Button, Dialog, ErrorNote, Field, Select, TextArea } from '../../ui/kit.js';
import { ACTIONS, FIELDS, OPS, TRIGGERS } from './automation-vocabulary.js';

interface Props {
  automation: Automation | null;
  members: Member[];
  templates: Template[];
  onClose: () => void;
  onSaved: (a: Automation) => void;
}

/** Only the fields each action takes: `{type:"reply", body}`, `{type:"assign", user_id}`, … */
function cleanAction(action: AutomationAction): AutomationAction {
  if (action.type === 'reply') return { type: 'reply', body: action.body ?? '' };
  if (action.type === 'reply_template') return { type: 'reply_template', template_id: action.template_id ?? '' };
  if (action.type === 'assign') return { type: 'assign', user_id: action.user_id ?? '' };
  return { type: action.type };
}

/** Conditions (field, operator, value) and actions (with their own fields), as rows that can be added and removed. */
export function AutomationForm({ automation, members, templates, onClose, onSaved }: Props): JSX.Element {
  const [name, setName] = useState(automation?.name ?? '');
  const [enabled, setEnabled] = useState(automation?.enabled ?? true);
  const [trigger, setTrigger] = useState(automation?.trigger ?? 'message.inbound');
  const [matchMode, setMatchMode] = useState<'all' | 'any'>(automation?.match ?? 'all');
  const [conditions, setConditions] = useState<AutomationCondition[]>(automation?.conditions ?? [{ field: 'content', op: 'contains', value: '' }]);
  const [actions, setActions] = useState<AutomationAction[]>(automation?.actions ?? [{ type: 'reply', body: '' }]);

  const save = useAction(async () => {
    const body = { name, enabled, trigger, match: matchMode, conditions, actions: actions.map(cleanAction) };
    onSaved(automation ? await api.patch<Automation>(`/api/automations/${automation.id}`, body) : await api.post<Automation>('/api/automations', body));
    onClose();
  });

  const setCondition = (i: number, change: Partial<AutomationCondition>): void =>
    setConditions(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const setAction = (i: number, change: Partial<AutomationAction>): void => setActions(actions.map((a, j) => (j === i ? { ...a, ...change } : a)));

  return (
    <Dialog title={automation ? 'Edit automation' : 'New automation'} onClose={onClose}>
      <form
        class="automation-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <Field label="Name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <div class="check">
          <input id="automation-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <label for="automation-enabled">On</label>
        </div>
        <Select label="When" options={TRIGGERS} value={trigger} onChange={(e) => setTrigger(e.currentTarget.value)} />
        <fieldset>
          <legend>Conditions</legend>
          <Select
            label="Match"
            options={[
              ['all', 'all of the conditions'],
              ['any', 'any of the conditions'],
            ]}
            value={matchMode}
            onChange={(e) => setMatchMode(e.currentTarget.value as 'all' | 'any')}
          />
          {conditions.map((c, i) => (
            <div class="rule-row" key={i} role="group" aria-label={`Condition ${i + 1}`}>
              <Select label="Field" options={FIELDS} value={c.field} onChange={(e) => setCondition(i, { field: e.currentTarget.value })} />
              <Select label="Operator" options={OPS} value={c.op} onChange={(e) => setCondition(i, { op: e.currentTarget.value })} />
              <Field label="Value" required value={c.value} onInput={(e) => setCondition(i, { value: e.currentTarget.value })} />
              <Button variant="link" onClick={() => setConditions(conditions.filter((_, j) => j !== i))} aria-label={`Remove condition ${i + 1}`}>
                Remove
              </Button>
            </div>
          ))}
          <Button onClick={() => setConditions([...conditions, { field: 'content', op: 'contains', value: '' }])}>Add a condition</Button>
        </fieldset>
        <fieldset>
          <legend>Actions, in order</legend>
          {actions.map((a, i) => (
            <div class="rule-row" key={i} role="group" aria-label={`Action ${i + 1}`}>
              <Select label="Action" options={ACTIONS} value={a.type} onChange={(e) => setAction(i, { type: e.currentTarget.value })} />
              {a.type === 'reply' ? (
                <TextArea label="Reply text" required rows={2} value={a.body ?? ''} onInput={(e) => setAction(i, { body: e.currentTarget.value })} />
              ) : a.type === 'reply_template' ? (
                <Select
                  label="Template"
                  required
                  options={[['', templates.length ? 'Choose a template' : 'No templates yet'], ...templates.map((t): [string, string] => [t.id, t.name])]}
                  value={a.template_id ?? ''}
                  onChange={(e) => setAction(i, { template_id: e.currentTarget.value })}
                />
              ) : a.type === 'assign' ? (
                <Select
                  label="Member"
                  required
                  options={[['', 'Choose a member'], ...members.map((m): [string, string] => [m.user_id, m.name || m.email])]}
                  value={a.user_id ?? ''}
                  onChange={(e) => setAction(i, { user_id: e.currentTarget.value })}
                />
              ) : null}
              <Button variant="link" onClick={() => setActions(actions.filter((_, j) => j !== i))} aria-label={`Remove action ${i + 1}`}>
                Remove
              </Button>
            </div>
          ))}
          <Button onClick={() => setActions([...actions, { type: 'reply', body: '' }])}>Add an action</Button>
        </fieldset>
        <ErrorNote error={save.error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
