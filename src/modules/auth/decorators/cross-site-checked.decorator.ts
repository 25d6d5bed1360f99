import { SetMetadata } from '@nestjs/common';

export const CROSS_SITE_CHECKED_KEY = 'csrf:cross-site-checked';

/**
 * A public state-changing route that a browser must only send from our own pages, although it has
 * no session yet: sign-in and sign-up, against login CSRF (a cross-site page signing the visitor
 * into the attacker's account). CsrfGuard applies its Fetch Metadata rules to it; routes
 * authenticated by the session cookie get them without this decorator.
 */
export const CrossSiteChecked = (): MethodDecorator => SetMetadata(CROSS_SITE_CHECKED_KEY, true);
