import type { MemberResponse } from '../dto/member.dto.js';
import type { MemberRecord } from './member.repository.js';

export function toMemberResponse(member: MemberRecord): MemberResponse {
  return { user_id: member.userId, email: member.email, name: member.name, role: member.role, joined_at: member.joinedAt.toISOString() };
}
