/**
 * Hooks other modules register from their `onModuleInit`, for a module that cannot import them
 * (they import it). Subclasses run the hooks in their own order and error policy.
 */
export class HookRegistry<Hook> {
  protected readonly hooks: Hook[] = [];

  /** Returns a function that removes the hook again (tests register hooks on a shared app). */
  register(hook: Hook): () => void {
    this.hooks.push(hook);
    return () => {
      const index = this.hooks.indexOf(hook);
      if (index >= 0) this.hooks.splice(index, 1);
    };
  }
}
