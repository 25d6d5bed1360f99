import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Article, ArticleHit } from '../../api/types.js';
import { useSession } from '../../session.js';
import { upsert, useAction, useDebounced, useLoad } from '../../ui/hooks.js';
import { Button, Confirm, EditDelete, Empty, ErrorNote, Field, FormDialog, Loading, PageHeader, TextArea, Time } from '../../ui/kit.js';

/** Knowledge articles: what automations answer from, searchable the way they rank it. */
export function KnowledgePage(): JSX.Element {
  const { isAdmin } = useSession();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  // A search answers ranked hits (best first, no times); the list, articles newest first.
  const articles = useLoad<(Article | ArticleHit)[]>(() => api.get(q ? `/api/knowledge/search?q=${encodeURIComponent(q)}` : '/api/knowledge'), [q]);
  const [editing, setEditing] = useState<Article | ArticleHit | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Article | ArticleHit | null>(null);
  const remove = useAction(async (a: Article | ArticleHit) => {
    await api.delete(`/api/knowledge/${a.id}`);
    articles.set((list) => list?.filter((x) => x.id !== a.id));
  });
  const list = articles.data ?? [];
  return (
    <section>
      <PageHeader title="Knowledge">
        {isAdmin ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New article
          </Button>
        ) : null}
      </PageHeader>
      <div class="search">
        <Field label="Search the articles" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      <ErrorNote error={articles.error} />
      {articles.loading && !articles.data ? (
        <Loading />
      ) : articles.error ? null : list.length === 0 ? (
        <Empty title={q ? `No article matches “${q}”.` : 'No articles yet.'}>Articles hold answers automations can send by themselves.</Empty>
      ) : (
        <ul class="cards">
          {list.map((a) => (
            <li key={a.id} class="card">
              <h2>{a.title}</h2>
              <p class="pre clamp">{a.body}</p>
              <p class="muted">
                {'rank' in a ? (
                  <span title="How well it matches, from 0 to 1: automations answer from knowledge when the best article reaches their threshold">
                    match {a.rank.toFixed(2)}
                  </span>
                ) : (
                  <>
                    Updated <Time value={a.updated_at} relative />
                  </>
                )}
              </p>
              {isAdmin ? <EditDelete what={a.title} onEdit={() => setEditing(a)} onDelete={() => setDeleting(a)} /> : null}
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <ArticleForm
          article={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => articles.set((current) => upsert<Article | ArticleHit>(current, saved))}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this article?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>“{deleting.title}” is deleted.</p>
        </Confirm>
      ) : null}
    </section>
  );
}

function ArticleForm({ article, onClose, onSaved }: { article: Article | ArticleHit | null; onClose: () => void; onSaved: (a: Article) => void }): JSX.Element {
  const [title, setTitle] = useState(article?.title ?? '');
  const [body, setBody] = useState(article?.body ?? '');
  const save = useAction(async () => {
    onSaved(article ? await api.patch<Article>(`/api/knowledge/${article.id}`, { title, body }) : await api.post<Article>('/api/knowledge', { title, body }));
    onClose();
  });
  return (
    <FormDialog title={article ? 'Edit article' : 'New article'} onClose={onClose} onSubmit={() => void save.run()} busy={save.busy} error={save.error}>
      <Field label="Title" required value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      <TextArea label="Text" required rows={8} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
    </FormDialog>
  );
}
