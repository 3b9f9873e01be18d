"""A refusal of the sandbox: a code the server turns into a French sentence (strategies/messages.ts)."""


class Refusal(Exception):
    def __init__(self, code, message, line=None, **extra):
        Exception.__init__(self, message)
        self.code, self.message, self.line, self.extra = code, message, line, extra

    def as_answer(self):
        return dict({'code': self.code, 'message': self.message, 'line': self.line}, **self.extra)


def fail(code, message, line=None, **extra):
    raise Refusal(code, message, line, **extra)
