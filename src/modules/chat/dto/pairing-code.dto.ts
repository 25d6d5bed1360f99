import { PhoneNumber } from '../../inbox/dto/phone-number.decorator.js';

/** `POST /api/chat/pairing-code`. */
export class PairingCodeRequestDto {
  @PhoneNumber({ description: 'The number to link, the one of the phone that will enter the code' })
  phone?: string;
}
