import { Global, Module } from '@nestjs/common';
import { ChannelRegistry } from './channel-registry.service.js';

/**
 * The channel port's registry, global so that channel modules (and test fakes) can register a
 * gateway without importing the inbox, and the inbox can resolve one without importing them.
 */
@Global()
@Module({ providers: [ChannelRegistry], exports: [ChannelRegistry] })
export class ChannelsModule {}
