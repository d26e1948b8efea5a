# Held-out test of the pyjwt case (never shown to the loop): the audience a service expects must
# equal one of the token's audiences. A token minted for another audience whose name merely
# contains the expected one (a longer host name, a path below it) is someone else's token.
import jwt

KEY = "held-out-secret-key-of-at-least-32-bytes"
EXPECTED = "https://api.example.com"


def decode(aud, audience=EXPECTED):
    token = jwt.encode({"sub": "user-1", "aud": aud}, KEY, algorithm="HS256")
    return jwt.decode(token, KEY, algorithms=["HS256"], audience=audience)


def rejected(aud, audience=EXPECTED):
    try:
        decode(aud, audience)
    except jwt.InvalidAudienceError:
        return True
    return False


assert decode(EXPECTED)["sub"] == "user-1", "the exact audience"
assert decode(["https://other.example.com", EXPECTED])["sub"] == "user-1", "one of a list"
assert decode("b", audience=["a", "b"])["sub"] == "user-1", "one of the expected list"
assert rejected("https://api.example.com.attacker.test"), "a longer host name"
assert rejected("https://api.example.com/v2/other-service"), "a path below the expected one"
assert rejected("xhttps://api.example.comx"), "the expected audience inside another"
assert rejected("api", audience=["https://api.example.com"]), "a claim inside the expected one"
assert rejected(["https://api.example.com.attacker.test"]), "a list holding a longer name"
print("ok")
