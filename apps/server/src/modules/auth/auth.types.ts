import type { InviteUnaffiliatedBody } from '@patientsim/domain/auth/auth.schemas';

export type SignUpAccountType = InviteUnaffiliatedBody['accountType'];
