// What the page knows about the signed-in member, shared by the screens.

const PROFILE = 'workout.profile';

export const app = {
  /** The member's Profile (JSON mapping), or null before it is known. */
  profile: JSON.parse(sessionStorage.getItem(PROFILE) || 'null'),
  /** The member's Totals. */
  totals: {},
  /** The member revision the page is up to (a string: uint64 in JSON). */
  revision: '0',
  /** Redraws the current screen (set by app.js). */
  refresh: () => {},
  /** The member's profile zone, for every day and time shown. */
  get zone() { return this.profile?.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; },
  /** Keeps `profile` for a reload within this tab (drawing Today before GetProfile answers). */
  setProfile(profile) {
    this.profile = profile;
    if (profile) sessionStorage.setItem(PROFILE, JSON.stringify(profile)); else sessionStorage.removeItem(PROFILE);
  },
};

/** The name the member goes by. */
export function nameOf(profile) {
  if (!profile) return '';
  return profile.displayName || [profile.firstName, profile.lastName].filter(Boolean).join(' ') || profile.email || '';
}
