export interface PersonName {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

/** Trimmed first name, last name and e-mail local part; '' when absent. */
export function nameParts({ email, firstName, lastName }: PersonName) {
  return {
    first: firstName?.trim() ?? '',
    last: lastName?.trim() ?? '',
    emailLocal: email.trim().split('@')[0] ?? '',
  };
}
