import { Module } from '@nestjs/common';

/** Contacts, conversations, messages, the ingest pipeline and sending through a channel port. */
@Module({})
export class InboxModule {}
