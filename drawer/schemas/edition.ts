/** Which drawer a shop runs: the Free routes and sections, or Free and Pro. */
export type Edition = 'free' | 'pro'
