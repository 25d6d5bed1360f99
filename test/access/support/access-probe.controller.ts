import { Body, Controller, Get, Post } from '@nestjs/common';
import { IsString } from 'class-validator';
import type { SessionPrincipal, WorkspaceActor } from '../../../src/modules/auth/auth.types.js';
import { ConsoleOnly, Member, Public, Roles, SessionOnly, SubscriptionExempt, UserOnly } from '../../../src/modules/auth/decorators/access.decorators.js';
import { Actor, CurrentSession } from '../../../src/modules/auth/decorators/actor.decorator.js';

export const ASSIGN_TEXT = 'only admins can assign conversations';

interface ActorEcho {
  workspace_id: string;
  via: string;
  role: string;
}

const echo = (actor: WorkspaceActor): ActorEcho => ({ workspace_id: actor.workspaceId, via: actor.via, role: actor.role });

class ProbeBody {
  @IsString({ message: 'text must be a string' })
  text: string;
}

/**
 * Test-only routes, one per "who" label of docs/api.md#who-may-call-what, so every label is covered whatever real routes
 * exist yet. Each answers who the guard chain let through.
 */
@Controller('test-access')
export class AccessProbeController {
  @Public()
  @Get('public')
  publicRoute(): { ok: true } {
    return { ok: true };
  }

  @UserOnly()
  @Get('user')
  user(@CurrentSession() session: SessionPrincipal): { user_id: string } {
    return { user_id: session.userId };
  }

  @Get('member')
  memberRead(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  @Member()
  @Post('member')
  memberWrite(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  @SessionOnly()
  @Get('session')
  session(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  @ConsoleOnly()
  @Get('console')
  consoleRead(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  @ConsoleOnly()
  @Post('console')
  consoleWrite(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  /** "admin session": a member route limited to owners/admins with its own 403 text. */
  @Roles('admin', ASSIGN_TEXT)
  @Post('assign')
  assign(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  @SubscriptionExempt()
  @Get('exempt')
  exempt(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  /** Validation runs after every guard: a denied caller never learns the body was wrong. */
  @Post('validated')
  validated(@Actor() actor: WorkspaceActor, @Body() body: ProbeBody): ActorEcho & { text: string } {
    return { ...echo(actor), text: body.text };
  }
}

/** A console class whose method opts back down to `@Member()`: the admin rule must not leak. */
@ConsoleOnly()
@Controller('test-access/console-class')
export class ConsoleClassProbeController {
  @Member()
  @Get('member')
  member(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }

  @Get('console')
  console(@Actor() actor: WorkspaceActor): ActorEcho {
    return echo(actor);
  }
}
