import { Injectable } from '@nestjs/common';
import { HookRegistry } from '../../../infra/hooks/hook-registry.js';
import type { TemplateProvider } from './template-provider.port.js';

/**
 * Where template providers announce themselves (the Cloud API module, from its `onModuleInit`;
 * `register` returns the function that removes it again). A workspace no provider handles has
 * local templates only.
 */
@Injectable()
export class TemplateProviders extends HookRegistry<TemplateProvider> {
  /** The provider that manages this workspace's templates, or null (local templates). */
  async for(workspaceId: string): Promise<TemplateProvider | null> {
    for (const provider of this.hooks) {
      if (await provider.handles(workspaceId)) return provider;
    }
    return null;
  }
}
