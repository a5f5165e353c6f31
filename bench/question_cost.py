#!/usr/bin/env python3
"""What a fixed set of questions about a Spring service costs an agent through the tiers,
against reading the files that answer them (issue 52, item 5).

Usage: python3 bench/question_cost.py <repochart binary> <mall checkout> [--show]

The repository is macrozheng/mall (a Spring Boot shop, MyBatis mappers, Maven modules).
Each question is the calls an agent makes (a second page only when the first says there is
one) (`repochart query --json`, the answer an MCP
client gets) and the facts the answers must hold for the question to count as answered;
its cost is the bytes of those answers / 4 (tokens, roughly). Reading files is the bytes
of the files an agent without the index would open to answer it / 4. Prints one row a
question and the mean; a question whose answers lack a fact is marked `wrong`.
"""
import json
import os
import subprocess
import sys

SERVICE = "com.macro.mall.portal.service.impl.OmsPortalOrderServiceImpl"
PORTAL = "mall-portal/src/main/java/com/macro/mall/portal"
# An `offset` the previous answer's last line names (`next page: offset=N`): the next page.
NEXT = "next"

QUESTIONS = [
    (
        "what does the order service work with (two pages)",
        [("dependency_graph", {"target": SERVICE, "direction": "out"}), ("dependency_graph", {"target": SERVICE, "direction": "out", "offset": NEXT})],
        ["OmsOrderMapper", "UmsMemberService", "RedisService"],
        [f"{PORTAL}/service/impl/OmsPortalOrderServiceImpl.java"],
    ),
    (
        "what handles POST /order/generateOrder",
        [("search_symbols", {"query": "POST /order/generateOrder"})],
        ["OmsPortalOrderController#generateOrder"],
        [f"{PORTAL}/controller/OmsPortalOrderController.java"],
    ),
    (
        "what breaks if the order service's generateOrder changes",
        [("change_impact", {"target": "com.macro.mall.portal.service.OmsPortalOrderService#generateOrder"})],
        ["OmsPortalOrderController"],
        [f"{PORTAL}/service/OmsPortalOrderService.java", f"{PORTAL}/controller/OmsPortalOrderController.java"],
    ),
    (
        "what SQL the order detail query runs",
        [
            ("get_symbol", {"symbol": "com.macro.mall.portal.dao.PortalOrderDao#getDetail"}),
        ],
        ["PortalOrderDao.xml:10-27"],
        [f"{PORTAL}/dao/PortalOrderDao.java", "mall-portal/src/main/resources/dao/PortalOrderDao.xml"],
    ),
    (
        "where are orders that timed out cancelled",
        [("search_symbols", {"query": "cancel orders that timed out", "limit": 5})],
        ["OrderTimeOutCancelTask#cancelTimeOutOrder", "OmsPortalOrderService#cancelTimeOutOrder"],
        [f"{PORTAL}/component/OrderTimeOutCancelTask.java", f"{PORTAL}/service/OmsPortalOrderService.java"],
    ),
    (
        "which modules depend on mall-common",
        [("dependency_graph", {"target": "mall-common", "level": "unit", "direction": "in"})],
        ["unit mall-admin", "unit mall-portal", "unit mall-search"],
        ["pom.xml", "mall-admin/pom.xml", "mall-portal/pom.xml", "mall-search/pom.xml", "mall-demo/pom.xml", "mall-security/pom.xml"],
    ),
    (
        "what the order controller depends on",
        [("dependency_graph", {"target": "com.macro.mall.portal.controller.OmsPortalOrderController", "direction": "out"})],
        ["OmsPortalOrderService", "CommonResult"],
        [f"{PORTAL}/controller/OmsPortalOrderController.java"],
    ),
    (
        "who uses the member service",
        [("dependency_graph", {"target": "com.macro.mall.portal.service.UmsMemberService", "direction": "in"})],
        ["OmsPortalOrderServiceImpl"],
        [f"{PORTAL}/service/UmsMemberService.java", f"{PORTAL}/service/impl/OmsPortalOrderServiceImpl.java"],
    ),
]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, repo = sys.argv[1], sys.argv[2]
    show = "--show" in sys.argv
    subprocess.run([binary, "index", "--repo", repo], check=True, capture_output=True)
    rows = []
    print("| question | calls | tier bytes | tokens | reading files: bytes | tokens | answered |\n|---|---|---|---|---|---|---|")
    for question, calls, facts, files in QUESTIONS:
        text = ""
        for tool, args in calls:
            if args.get("offset") == NEXT:
                if "next page: offset=" not in text:
                    continue
                args = dict(args, offset=int(text.rsplit("next page: offset=", 1)[1].split()[0]))
            r = subprocess.run([binary, "query", "--repo", repo, "--json", json.dumps(args), tool], capture_output=True, text=True)
            text += r.stdout
            if show:
                print(f"--- {tool} {json.dumps(args)}\n{r.stdout}{r.stderr}")
        read = sum(os.path.getsize(os.path.join(repo, f)) for f in files)
        ok = all(f in text for f in facts)
        missing = [f for f in facts if f not in text]
        rows.append((len(text), read, ok))
        print(f"| {question} | {len(calls)} | {len(text):,} | {len(text) // 4:,} | {read:,} | {read // 4:,} | {'yes' if ok else 'wrong: lacks ' + ', '.join(missing)} |")
    mean = sum(r[0] for r in rows) / len(rows) / 4
    mean_read = sum(r[1] for r in rows) / len(rows) / 4
    answered = sum(1 for r in rows if r[2])
    print(f"\nmean tokens a question: tiers {mean:.0f}, reading files {mean_read:.0f}; answered {answered} of {len(rows)}")


if __name__ == "__main__":
    main()
