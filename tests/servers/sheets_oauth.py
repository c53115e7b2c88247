"""The test Sheets server's token endpoint (``POST /token``) and bearer tokens, as strict as
Google's OAuth 2.0 server for a service account's JWT-bearer grant (RFC 7523):

- the assertion's RS256 signature is verified with the public half of the test key
  (``service_account_info``); its ``kid``, if any, must be the key's id;
- ``iss`` must be a known service account, ``aud`` Google's token endpoint, ``scope`` present and made of
  Google scopes; ``iat``/``exp`` must be sane by the server's clock: ``exp`` after now, ``iat`` not in
  the future, ``exp - iat`` at most an hour (clock skew of 5 minutes allowed);
- errors in RFC 6749's shape, status 400: ``{"error": "invalid_grant", "error_description": ...}``;
- tokens carry the granted scopes and expire after ``lifetime`` seconds (``expires_in``); an
  unknown or expired token gets 401 UNAUTHENTICATED, a token without a scope the method needs 403.

Like Google, the grant does not check that the scopes fit the Sheets API (a Drive scope also opens
spreadsheets): that is checked per method, against the discovery document's scopes."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from google.auth import crypt

from tests.servers.sheets_errors import scope_insufficient, unauthenticated

__all__ = [
    "SERVICE_ACCOUNT",
    "Granted",
    "OAuthError",
    "TokenIssuer",
    "private_key_pem",
    "service_account_info",
]

SERVICE_ACCOUNT = "courier@courier-test.iam.gserviceaccount.com"
KEY_ID = "0123456789abcdef"
GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
# The audiences Google's token endpoint takes: google-auth always signs the first, whatever the key
# file's token_uri (where the grant is sent); this server's own /token URL is taken too.
AUDIENCES = (
    "https://oauth2.googleapis.com/token",
    "https://www.googleapis.com/oauth2/v4/token",
    "https://accounts.google.com/o/oauth2/token",
)
SKEW = 300  # seconds of clock difference Google tolerates
SHORT_LIVED = (
    "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
    "Check your iat and exp values in the JWT claim."
)


@functools.cache
def private_key_pem() -> str:
    """A throwaway RSA key (generated once per test run: it takes ~50 ms)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return pem.decode()


@functools.cache
def _public_key_pem() -> str:
    key = serialization.load_pem_private_key(private_key_pem().encode(), password=None)
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return public.decode()


def service_account_info(token_uri: str) -> dict[str, str]:
    """A service-account key file's contents, shaped as Google's console writes it."""
    return {
        "type": "service_account",
        "project_id": "courier-test",
        "private_key_id": KEY_ID,
        "private_key": private_key_pem(),
        "client_email": SERVICE_ACCOUNT,
        "client_id": "100000000000000000001",
        "token_uri": token_uri,
    }


class OAuthError(Exception):
    """A refusal of the token endpoint (RFC 6749 section 5.2)."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error, self.description, self.status = error, description, status

    def body(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


@dataclass(frozen=True)
class Granted:
    """An access token: whose, which scopes, until when (by the server's clock)."""

    token: str
    account: str
    scopes: frozenset[str]
    expires: float


@dataclass
class TokenIssuer:
    clock: Callable[[], float] = field(default=lambda: time.time())
    lifetime: int = 3600  # expires_in of every token issued from now on
    accounts: dict[str, str] = field(default_factory=lambda: {SERVICE_ACCOUNT: KEY_ID})
    granted: dict[str, Granted] = field(default_factory=dict)
    tokens: list[str] = field(default_factory=list)  # in the order issued
    scopes_left: frozenset[str] | None = None  # a fault: every token holds only these

    def grant(self, form: Mapping[str, list[str]], token_uri: str) -> dict[str, Any]:
        """The answer to ``POST /token`` with the form ``form``, or ``OAuthError``."""
        grant_type = form.get("grant_type", [""])[0]
        if not grant_type:
            raise OAuthError("invalid_request", "Missing required parameter: grant_type")
        if grant_type != GRANT_TYPE:
            raise OAuthError("unsupported_grant_type", f"Invalid grant_type: {grant_type}")
        if not form.get("assertion", [""])[0]:
            raise OAuthError("invalid_request", "Missing required parameter: assertion")
        claims = self._verified(form["assertion"][0])
        self._check_claims(claims, token_uri)
        scopes = frozenset(str(claims["scope"]).split())
        token = f"ya29.test-{len(self.tokens) + 1}-{secrets.token_urlsafe(8)}"
        expires = self.clock() + self.lifetime
        self.granted[token] = Granted(token, str(claims["iss"]), scopes, expires)
        self.tokens.append(token)
        return {"access_token": token, "expires_in": self.lifetime, "token_type": "Bearer"}

    def _verified(self, assertion: str) -> dict[str, Any]:
        """The claims of a JWT whose RS256 signature the test key made."""
        try:
            head, body, signature = assertion.split(".")
            header, claims = _part(head), _part(body)
            signed = _unbase64(signature)
        except (ValueError, binascii.Error):
            raise OAuthError("invalid_grant", "Invalid JWT: malformed assertion") from None
        if header.get("alg") != "RS256":
            raise OAuthError("invalid_grant", f"Invalid JWT: unsupported algorithm {header.get('alg')}")
        account = str(claims.get("iss", ""))
        if account not in self.accounts:
            raise OAuthError("invalid_grant", "Invalid grant: account not found")
        if header.get("kid", self.accounts[account]) != self.accounts[account]:
            raise OAuthError("invalid_grant", "Invalid JWT Signature.")
        verifier = crypt.RSAVerifier.from_string(_public_key_pem())  # type: ignore[no-untyped-call]
        if not verifier.verify(f"{head}.{body}".encode(), signed):
            raise OAuthError("invalid_grant", "Invalid JWT Signature.")
        return claims

    def _check_claims(self, claims: Mapping[str, Any], token_uri: str) -> None:
        if claims.get("aud") not in (*AUDIENCES, token_uri):
            raise OAuthError(
                "invalid_grant", f"Invalid JWT: Failed audience check. The right audience is {AUDIENCES[0]}"
            )
        issued, expiry, now = claims.get("iat"), claims.get("exp"), self.clock()
        if not isinstance(issued, int | float) or not isinstance(expiry, int | float):
            raise OAuthError("invalid_grant", SHORT_LIVED)
        if expiry - issued > 3600 or issued > now + SKEW or expiry < now - SKEW or expiry <= issued:
            raise OAuthError("invalid_grant", SHORT_LIVED)
        scopes = str(claims.get("scope", "")).split()
        if not scopes or not all(s.startswith("https://www.googleapis.com/auth/") for s in scopes):
            raise OAuthError("invalid_scope", "Invalid OAuth scope or ID token audience provided.")

    def authorise(self, token: str, needs: frozenset[str], method_id: str) -> Granted:
        """The token's grant, if it is known, unexpired, and holds one of the scopes ``needs``."""
        granted = self.granted.get(token)
        if granted is None:
            raise unauthenticated("CREDENTIALS_MISSING" if not token else "ACCESS_TOKEN_TYPE_UNSUPPORTED")
        if self.clock() >= granted.expires:
            raise unauthenticated("ACCESS_TOKEN_EXPIRED")
        held = granted.scopes if self.scopes_left is None else self.scopes_left
        if needs and not held & needs:
            raise scope_insufficient(method_id)
        return granted


def _part(text: str) -> dict[str, Any]:
    loaded = json.loads(_unbase64(text))
    if not isinstance(loaded, dict):
        raise ValueError("not a JSON object")
    return loaded


def _unbase64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
