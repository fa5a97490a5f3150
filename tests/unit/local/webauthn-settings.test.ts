import { describe, expect, it } from 'vitest';
import { resolveAuthSettings } from '../../../supabase/local/auth/settings.ts';
import { backendAuthLimits } from '../../../supabase/local/service-limits.ts';
import { backendSettingsFromEnv } from '../../../supabase/local/settings.ts';

describe('the security keys\' settings', () => {
  it('are off in the Auth module as in GoTrue, and on for the backend process unless LOCAL_SUPABASE_MFA_WEBAUTHN=false', () => {
    expect(resolveAuthSettings({}, {}).mfa.webauthnEnabled).toBe(false);
    expect(resolveAuthSettings({}, { LOCAL_SUPABASE_MFA_WEBAUTHN: 'true' }).mfa.webauthnEnabled).toBe(true);
    expect(backendSettingsFromEnv({}).mfaWebauthn).toBe(true);
    expect(backendSettingsFromEnv({ LOCAL_SUPABASE_MFA_WEBAUTHN: 'false' }).mfaWebauthn).toBe(false);
    expect(() => backendSettingsFromEnv({ LOCAL_SUPABASE_MFA_WEBAUTHN: 'yes' })).toThrow('LOCAL_SUPABASE_MFA_WEBAUTHN must be true or false');
  });

  it('take the relying party from the site address unless told, as GoTrue\'s GOTRUE_WEBAUTHN_RP_* settings', () => {
    expect(resolveAuthSettings({}, {}).mfa.relyingParty).toEqual({ id: 'localhost', name: 'localhost', origins: ['http://localhost:4173'] });
    expect(resolveAuthSettings({}, { LOCAL_SUPABASE_SITE_URL: 'https://dashboard.example.com/app' }).mfa.relyingParty).toEqual({
      id: 'dashboard.example.com',
      name: 'dashboard.example.com',
      origins: ['https://dashboard.example.com'],
    });
    const env = {
      LOCAL_SUPABASE_WEBAUTHN_RP_ID: 'example.com',
      LOCAL_SUPABASE_WEBAUTHN_RP_DISPLAY_NAME: 'Demo Motors Group',
      LOCAL_SUPABASE_WEBAUTHN_RP_ORIGINS: 'https://dashboard.example.com, https://service.example.com/',
    };
    expect(resolveAuthSettings({}, env).mfa.relyingParty).toEqual({
      id: 'example.com',
      name: 'Demo Motors Group',
      origins: ['https://dashboard.example.com', 'https://service.example.com'],
    });
  });

  it.each(['dashboard.example.com', 'https://dashboard.example.com/login', 'ftp://files.example.com'])('refuse the origin %s, naming the variable', (origin) => {
    expect(() => resolveAuthSettings({}, { LOCAL_SUPABASE_WEBAUTHN_RP_ORIGINS: origin })).toThrow(/^LOCAL_SUPABASE_WEBAUTHN_RP_ORIGINS must list origins/);
  });

  it('bound what a browser may send by the limits table', () => {
    expect(resolveAuthSettings({}, {}).mfa.webauthn).toEqual({
      clientDataBytes: backendAuthLimits.webauthnClientDataBytes,
      attestationObjectBytes: backendAuthLimits.webauthnAttestationObjectBytes,
      authenticatorDataBytes: backendAuthLimits.webauthnAuthenticatorDataBytes,
      signatureBytes: backendAuthLimits.webauthnSignatureBytes,
      credentialIdBytes: backendAuthLimits.webauthnCredentialIdBytes,
      maxDepth: backendAuthLimits.webauthnCborDepth,
      maxItems: backendAuthLimits.webauthnCborItems,
      minBits: backendAuthLimits.webauthnRsaMinBits,
      maxBits: backendAuthLimits.webauthnRsaMaxBits,
    });
  });
});
