import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { PROXY_URL_EXAMPLE, PROXY_URL_INVALID, PROXY_URL_PATTERN } from '../../../../infra/net/proxy-url.js';

/** Longer than any proxy URL (host 253, credentials 255 + 255, escaped): a bound, not a rule. */
export const PROXY_URL_MAX_LENGTH = 2048;
export const PROXY_URL_REQUIRED = 'url is required';
export const PROXY_URL_TOO_LONG = `url must be at most ${PROXY_URL_MAX_LENGTH} characters`;

export const PROXY_SOURCES = ['number', 'default', 'none'] as const;
export type ProxySource = (typeof PROXY_SOURCES)[number];

/** `PUT /api/chat/proxy`. */
export class PutScanProxyDto {
  @ApiProperty({
    example: PROXY_URL_EXAMPLE,
    pattern: PROXY_URL_PATTERN,
    description:
      "The number's egress proxy: `http://` or `https://` (HTTP CONNECT; `https://` is TLS to the proxy) or `socks5://`, " +
      'then `[user:password@]host[:port]` (ports default to 80, 443 and 1080; credentials percent-encoded), nothing else. ' +
      'Stored encrypted; answered with the password masked',
  })
  @IsDefined({ message: PROXY_URL_REQUIRED })
  @IsString({ message: PROXY_URL_INVALID })
  @MaxLength(PROXY_URL_MAX_LENGTH, { message: PROXY_URL_TOO_LONG })
  url: string;
}

/** The proxy a number's socket and media transfers use. */
export class ScanProxyResponse {
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'socks5://user:***@proxy.example.com:1080',
    description: 'The proxy in use, its credential masked (`***`); null when the number connects directly',
  })
  url: string | null;

  @ApiProperty({
    enum: PROXY_SOURCES,
    description: "`number`: this number's own (PUT); `default`: the service's WA_PROXY_URL, for every number without one; `none`: direct",
  })
  source: ProxySource;
}
