package com.livery.client.tuf;

/** No trusted role vouches for the target: it is not listed, or only a role that may not sign that path lists it. */
public class TargetNotFoundException extends TufException {
    private static final long serialVersionUID = 1L;

    public TargetNotFoundException(String message) {
        super(message);
    }

    public TargetNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override public String vectorClass() { return "TargetNotFound"; }

    @Override public String pythonTufName() { return "TargetNotFound"; }
}
