import type { ComponentChildren, JSX } from 'preact';
import { useId, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Label } from '../../api/team-types.js';
import type { Automation, AutomationAction, AutomationCondition, Member, Template } from '../../api/types.js';
import { useAction } from '../../ui/hooks.js';
import { Button, Field, FormDialog, Select, TextArea } from '../../ui/kit.js';
import { ACTIONS, FIELDS, MAX_SNOOZE_MINUTES, OPS, STATUSES, TRIGGERS } from './automation-vocabulary.js';

interface Props {
  automation: Automation | null;
  members: Member[];
  templates: Template[];
  labels: Label[];
  onClose: () => void;
  onSaved: (a: Automation) => void;
}

/** Only the fields each action takes: `{type:"reply", body}`, `{type:"assign", user_id}`, … */
function cleanAction(action: AutomationAction): AutomationAction {
  if (action.type === 'reply') return { type: 'reply', body: action.body ?? '' };
  if (action.type === 'reply_template')
    return { type: 'reply_template', template_id: action.template_id ?? '', parameters: (action.parameters ?? []).filter((p) => p.trim() !== '') };
  if (action.type === 'assign') return { type: 'assign', user_id: action.user_id || null };
  if (action.type === 'answer_from_knowledge') return action.min_rank === undefined ? { type: action.type } : { type: action.type, min_rank: action.min_rank };
  if (action.type === 'add_label') return { type: 'add_label', label_id: action.label_id ?? '' };
  if (action.type === 'set_status') {
    const status = action.status ?? 'open';
    // The service refuses snooze_minutes with any other status, so a value left from an earlier choice goes.
    return status === 'snoozed' ? { type: 'set_status', status, snooze_minutes: action.snooze_minutes } : { type: 'set_status', status };
  }
  return { type: action.type };
}

/** What the chosen template says, so its parameters can be filled in. */
function templateText(templates: Template[], id: string | undefined): string | undefined {
  const template = templates.find((t) => t.id === id);
  return template ? `The template: “${template.body}”` : undefined;
}

/** `is_group` compares with true or false; every other field with text. */
function cleanCondition(condition: AutomationCondition): AutomationCondition {
  if (condition.field === 'is_group') return { field: 'is_group', op: 'equals', value: condition.value === true || condition.value === 'true' };
  return { ...condition, value: String(condition.value) };
}

/** One numbered condition or action: a group named like its head, its fields, and its Remove. */
function Rule({ label, onRemove, children }: { label: string; onRemove: () => void; children: ComponentChildren }): JSX.Element {
  const id = useId();
  return (
    <div class="rule" role="group" aria-labelledby={id}>
      <div class="rule-head">
        <span id={id}>{label}</span>
        <Button variant="link" onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`}>
          Remove
        </Button>
      </div>
      <div class="rule-fields">{children}</div>
    </div>
  );
}

/** Conditions (field, operator, value) and actions (with their own fields), as rows that can be added and removed. */
export function AutomationForm({ automation, members, templates, labels, onClose, onSaved }: Props): JSX.Element {
  const [name, setName] = useState(automation?.name ?? '');
  const [enabled, setEnabled] = useState(automation?.enabled ?? true);
  const [trigger, setTrigger] = useState(automation?.trigger ?? 'message.inbound');
  const [matchMode, setMatchMode] = useState<'all' | 'any'>(automation?.match ?? 'all');
  const [conditions, setConditions] = useState<AutomationCondition[]>(automation?.conditions ?? [{ field: 'content', op: 'contains', value: '' }]);
  const [actions, setActions] = useState<AutomationAction[]>(automation?.actions ?? [{ type: 'reply', body: '' }]);

  const save = useAction(async () => {
    const body = { name, enabled, trigger, match: matchMode, conditions: conditions.map(cleanCondition), actions: actions.map(cleanAction) };
    onSaved(automation ? await api.patch<Automation>(`/api/automations/${automation.id}`, body) : await api.post<Automation>('/api/automations', body));
    onClose();
  });

  const setCondition = (i: number, change: Partial<AutomationCondition>): void => setConditions(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const setAction = (i: number, change: Partial<AutomationAction>): void => setActions(actions.map((a, j) => (j === i ? { ...a, ...change } : a)));

  return (
    <FormDialog
      wide
      title={automation ? 'Edit automation' : 'New automation'}
      onClose={onClose}
      onSubmit={() => void save.run()}
      busy={save.busy}
      error={save.error}
    >
      <Field label="Name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <div class="check">
        <input id="automation-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <label for="automation-enabled">On (it acts as soon as it is saved)</label>
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
          <Rule key={i} label={`Condition ${i + 1}`} onRemove={() => setConditions(conditions.filter((_, j) => j !== i))}>
            <Select label="Field" options={FIELDS} value={c.field} onChange={(e) => setCondition(i, { field: e.currentTarget.value })} />
            {c.field === 'is_group' ? (
              <>
                <Select label="Operator" options={[['equals', 'equals']]} value="equals" />
                <Select
                  label="Value"
                  options={[
                    ['true', 'true (a group)'],
                    ['false', 'false (one person)'],
                  ]}
                  value={String(c.value === true || c.value === 'true')}
                  onChange={(e) => setCondition(i, { value: e.currentTarget.value })}
                />
              </>
            ) : (
              <>
                <Select label="Operator" options={OPS} value={c.op} onChange={(e) => setCondition(i, { op: e.currentTarget.value })} />
                <Field label="Value" required value={String(c.value)} onInput={(e) => setCondition(i, { value: e.currentTarget.value })} />
              </>
            )}
          </Rule>
        ))}
        {conditions.length === 0 ? <p class="muted">No conditions: it acts on every message.</p> : null}
        <Button onClick={() => setConditions([...conditions, { field: 'content', op: 'contains', value: '' }])}>Add a condition</Button>
      </fieldset>
      <fieldset>
        <legend>Actions, in order</legend>
        {actions.map((a, i) => (
          <Rule key={i} label={`Action ${i + 1}`} onRemove={() => setActions(actions.filter((_, j) => j !== i))}>
            <Select label="Action" options={ACTIONS} value={a.type} onChange={(e) => setAction(i, { type: e.currentTarget.value })} />
            {a.type === 'reply' ? (
              <TextArea label="Reply text" required rows={2} value={a.body ?? ''} onInput={(e) => setAction(i, { body: e.currentTarget.value })} />
            ) : a.type === 'reply_template' ? (
              <Select
                label="Template"
                required
                options={[
                  ['', templates.length ? 'Choose a template' : 'No templates yet'],
                  ...templates.map((t): [string, string] => [t.id, `${t.name} (${t.language})`]),
                ]}
                value={a.template_id ?? ''}
                onChange={(e) => setAction(i, { template_id: e.currentTarget.value })}
              />
            ) : null}
            {a.type === 'reply_template' ? (
              <TextArea
                label="Parameters, one per line ({{1}}, {{2}}, …)"
                hint={templateText(templates, a.template_id)}
                rows={2}
                value={(a.parameters ?? []).join('\n')}
                onInput={(e) => setAction(i, { parameters: e.currentTarget.value.split('\n') })}
              />
            ) : a.type === 'answer_from_knowledge' ? (
              <Field
                label="Least rank to answer (0 to 1, optional)"
                type="number"
                min={0}
                max={1}
                step={0.01}
                value={a.min_rank ?? ''}
                onInput={(e) => setAction(i, { min_rank: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}
              />
            ) : a.type === 'assign' ? (
              <Select
                label="Member"
                options={[['', 'Nobody (unassign)'], ...members.map((m): [string, string] => [m.user_id, m.name || m.email])]}
                value={a.user_id ?? ''}
                onChange={(e) => setAction(i, { user_id: e.currentTarget.value })}
              />
            ) : a.type === 'add_label' ? (
              <Select
                label="Label"
                required
                options={[['', labels.length ? 'Choose a label' : 'No labels yet (Settings → Labels)'], ...labels.map((l): [string, string] => [l.id, l.name])]}
                value={a.label_id ?? ''}
                onChange={(e) => setAction(i, { label_id: e.currentTarget.value })}
              />
            ) : a.type === 'set_status' ? (
              <>
                <Select
                  label="Status"
                  options={STATUSES}
                  value={a.status ?? 'open'}
                  // Snoozing needs a length: an hour unless one was already given.
                  onChange={(e) => setAction(i, { status: e.currentTarget.value, snooze_minutes: a.snooze_minutes ?? 60 })}
                />
                {a.status === 'snoozed' ? (
                  <Field
                    label="Snooze for (minutes)"
                    hint="1 to 525600 (365 days). A message from the contact opens it earlier."
                    type="number"
                    required
                    min={1}
                    max={MAX_SNOOZE_MINUTES}
                    step={1}
                    value={a.snooze_minutes ?? ''}
                    onInput={(e) => setAction(i, { snooze_minutes: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}
                  />
                ) : null}
              </>
            ) : null}
          </Rule>
        ))}
        <Button onClick={() => setActions([...actions, { type: 'reply', body: '' }])}>Add an action</Button>
      </fieldset>
    </FormDialog>
  );
}
