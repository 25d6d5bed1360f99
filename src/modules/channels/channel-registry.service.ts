import { Injectable } from '@nestjs/common';
import type { ChannelGateway, ChannelName } from './channel-gateway.port.js';
import { CHANNEL_NAMES } from './channel-gateway.port.js';

/**
 * Where channel implementations announce themselves (from their module's `onModuleInit`), so the
 * inbox can pick the gateway of a conversation's channel without depending on any channel module.
 */
@Injectable()
export class ChannelRegistry {
  private readonly gateways = new Map<ChannelName, ChannelGateway>();

  register(gateway: ChannelGateway): void {
    this.gateways.set(gateway.channel, gateway);
  }

  unregister(gateway: ChannelGateway): void {
    if (this.gateways.get(gateway.channel) === gateway) this.gateways.delete(gateway.channel);
  }

  gatewayFor(channel: ChannelName): ChannelGateway | undefined {
    return this.gateways.get(channel);
  }

  /** The gateway of `channel` when the workspace is connected through it, else undefined. */
  async connected(workspaceId: string, channel: ChannelName): Promise<ChannelGateway | undefined> {
    const gateway = this.gateways.get(channel);
    if (!gateway) return undefined;
    return (await gateway.isConnected(workspaceId)) ? gateway : undefined;
  }

  /**
   * The channel a new conversation should use: the first connected one in a fixed order (scan,
   * then meta), so a workspace that has both gets a stable choice.
   */
  async firstConnected(workspaceId: string): Promise<ChannelGateway | undefined> {
    for (const channel of CHANNEL_NAMES) {
      const gateway = await this.connected(workspaceId, channel);
      if (gateway) return gateway;
    }
    return undefined;
  }
}
