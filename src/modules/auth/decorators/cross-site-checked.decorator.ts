import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const CROSS_SITE_CHECKED_KEY = 'csrf:cross-site-checked';

/**
 * A public state-changing route that a browser must only send from our own pages, although it has
 * no session yet: sign-in and sign-up, against login CSRF (a cross-site page signing the visitor
 * into the attacker's account). CsrfGuard applies its Fetch Metadata rules to it; routes
 * authenticated by the session cookie get them without this decorator.
 */
export const CrossSiteChecked = (): MethodDecorator =>
  // The extension lets the OpenAPI document declare the 403 the guard may answer.
  applyDecorators(SetMetadata(CROSS_SITE_CHECKED_KEY, true), ApiExtension('x-cross-site-checked', true));
