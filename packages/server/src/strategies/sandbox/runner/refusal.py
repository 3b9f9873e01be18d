"""A refusal of the sandbox: a code the server turns into a French sentence (strategies/messages.ts)."""


# What a refusal quotes from the file (a name, a list of names, an error's text) is cut here, once
# for every code: a name may be 70,000 characters long, and the server shows the quote to its author
# and stores it in the archive row, whose meta is a MySQL TEXT (65,535 bytes).
MESSAGE_MAX = 300


def shorten(text):
    if not isinstance(text, str) or len(text) <= MESSAGE_MAX:
        return text
    return text[:MESSAGE_MAX - 1] + '\u2026'


class Refusal(Exception):
    def __init__(self, code, message, line=None, **extra):
        message = shorten(message)
        Exception.__init__(self, message)
        self.code, self.message, self.line, self.extra = code, message, line, extra

    def as_answer(self):
        return dict({'code': self.code, 'message': self.message, 'line': self.line}, **self.extra)


def fail(code, message, line=None, **extra):
    raise Refusal(code, message, line, **extra)
