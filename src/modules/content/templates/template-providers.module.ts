import { Global, Module } from '@nestjs/common';
import { TemplateProviders } from './template-providers.js';

/**
 * The template providers' registry, global (like the channels' registry) so a provider module,
 * or a test fake, can register without importing the content module.
 */
@Global()
@Module({ providers: [TemplateProviders], exports: [TemplateProviders] })
export class TemplateProvidersModule {}
