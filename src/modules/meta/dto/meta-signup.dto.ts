import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, Matches } from 'class-validator';
import { PHONE_NUMBER_ID_INVALID, WABA_ID_INVALID } from './meta-settings.dto.js';

export const CODE_INVALID = 'code must be the code the signup popup returned';

/** `POST /api/meta/signup`: what Embedded Signup handed the Console. */
export class MetaSignupDto {
  @ApiProperty({ description: '`authResponse.code` of the FB.login callback (short-lived: send it at once)' })
  @IsDefined({ message: 'code is required' })
  @Matches(/^\S{1,4096}$/, { message: CODE_INVALID })
  code: string;

  @ApiProperty({ example: '102290129340398', description: '`data.waba_id` of the WA_EMBEDDED_SIGNUP FINISH message' })
  @IsDefined({ message: 'waba_id is required' })
  @Matches(/^\d{1,32}$/, { message: WABA_ID_INVALID })
  waba_id: string;

  @ApiProperty({ example: '106540352242922', description: '`data.phone_number_id` of the WA_EMBEDDED_SIGNUP FINISH message' })
  @IsDefined({ message: 'phone_number_id is required' })
  @Matches(/^\d{1,32}$/, { message: PHONE_NUMBER_ID_INVALID })
  phone_number_id: string;
}

/** What the Console needs to open Embedded Signup (FB.init and FB.login). */
export class MetaSignupConfigResponse {
  @ApiProperty({ example: '1234567890', description: "The platform's Meta app id (FB.init `appId`)" })
  app_id: string;

  @ApiProperty({ example: '987654321', description: 'The Facebook Login for Business configuration (FB.login `config_id`)' })
  config_id: string;

  @ApiProperty({ example: 'v23.0', description: 'The Graph API version (FB.init `version`)' })
  graph_version: string;

  @ApiProperty({ example: 'v4', description: 'The Embedded Signup version (FB.login `extras.version`)' })
  signup_version: string;
}
