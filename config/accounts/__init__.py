"""Accounts: log-in with lockout and an optional second factor, idle sessions, expiring
and revocable API tokens (docs/security.md)."""
