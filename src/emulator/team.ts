/** The team and member the emulator's credentials belong to (see /oauth2/userinfo). */
export const TEAM_NAME = "Emulator Team";
export const TEAM_ID = "1680000000000000001";
export const MEMBER_ID = "1680000000000000002";
export const MEMBER_NAME = "emulator";
