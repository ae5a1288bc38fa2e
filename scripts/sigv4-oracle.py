#!/usr/bin/env python3
"""botocore's SigV4 signer as an oracle for Livery's (Tests/LiveryObjectStoreTests/SigV4Tests.swift).

Reads a JSON list of S3 requests on stdin ({method, path, query: [[k, v]], headers: [[k, v]],
body, host, expires?}) and writes, for each, the Authorization header botocore's
S3SigV4Auth makes, its X-Amz-Date, and the presigned URL S3SigV4QueryAuth makes.
Exit 3 when botocore is missing."""
import json
import sys
import urllib.parse

try:
    from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError:
    sys.exit(3)

cases = json.load(sys.stdin)
out = []
for case in cases:
    credentials = Credentials(case["access_key"], case["secret_key"], case.get("token"))
    # botocore expects the path already quoted the way S3 quotes it (each byte but unreserved and '/').
    path = urllib.parse.quote(case["path"], safe="/~")
    query = urllib.parse.urlencode([tuple(p) for p in case["query"]], quote_via=urllib.parse.quote, safe="~")
    url = "http://" + case["host"] + path + ("?" + query if query else "")
    # botocore hashes the body itself into X-Amz-Content-SHA256 (payload signing on).
    request = AWSRequest(method=case["method"], url=url, headers=dict(case["headers"]), data=case["body"].encode())
    request.context["payload_signing_enabled"] = True
    S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
    header_date = request.headers["X-Amz-Date"]
    authorization = request.headers["Authorization"]

    presign = AWSRequest(method="GET", url="http://" + case["host"] + path)
    S3SigV4QueryAuth(credentials, "s3", case["region"], expires=case.get("expires", 3600)).add_auth(presign)
    out.append({"authorization": authorization, "date": header_date, "presigned": presign.url})
json.dump(out, sys.stdout)
