#!/usr/bin/env bash
# Checks each target's `import` lines against the layering table in docs/architecture.md.
set -euo pipefail
cd "$(dirname "$0")/.."
toolchain="Foundation FoundationNetworking FoundationEssentials Dispatch Synchronization Glibc Musl os"
declare -A allowed=(
  [SignetMacros]=""
  [SignetSync]=""
  [SignetCrypto]="CLibCrypto CSodium CSignetShims"
  [SignetJOSE]="SignetCrypto"
  [SignetWire]="SignetCrypto"
  [SignetStore]="SignetMacros SignetWire SignetCrypto"
  [SignetSQL]="SignetMacros SignetStore SignetSync SignetWire SignetCrypto"
  [SignetSQLite]="SignetMacros SignetSQL SignetStore SignetSync SignetWire SignetCrypto CSQLite CSignetShims"
  [SignetPostgres]="SignetMacros SignetSQL SignetStore SignetSync SignetWire SignetCrypto CLibPQ"
  [SignetCore]="SignetMacros SignetWire SignetJOSE SignetStore SignetSync SignetCrypto CSignetData CLibIDN2"
  [SignetFormEncoding]=""
  [SignetHTTP]="SignetMacros SignetFormEncoding SignetSync CMicroHTTPD CSignetShims"
  [SignetWebAuthn]="SignetMacros SignetCrypto SignetJOSE CLibCbor CSignetAttestation"
  [SignetMail]="SignetMacros CSignetMail SignetCrypto SignetWire SignetFormEncoding"
  [SignetQR]="CLibQREncode"
  [SignetMetrics]=""
  [SignetClientCore]="SignetWire SignetJOSE SignetCrypto SignetFormEncoding CSignetOutbound"
  [SignetFederation]="SignetMacros SignetClientCore SignetWire SignetJOSE SignetCrypto"
  [SignetResource]="SignetClientCore SignetWire SignetJOSE SignetCrypto"
  [SignetKit]="SignetClientCore SignetWire SignetJOSE SignetCrypto"
  [SignetKitSecretService]="SignetKit CLibSecret CSecretShims"
  [SignetKitApple]="SignetKit AuthenticationServices Security"
  [SignetServer]="SignetMacros SignetCore SignetHTTP SignetStore SignetSQL SignetSQLite SignetPostgres SignetWire SignetJOSE SignetCrypto SignetFederation SignetClientCore SignetMail SignetWebAuthn SignetQR SignetMetrics CSignetResolver"
)
status=0
for target in "${!allowed[@]}"; do
  dir="Sources/$target"; [ -d "$dir" ] || continue
  while IFS=: read -r file _ line; do
    mod=$(echo "$line" | sed -E 's/^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*import[[:space:]]+(class |struct |enum |func |protocol )?([A-Za-z_][A-Za-z0-9_]*).*/\4/')
    case " $toolchain ${allowed[$target]} " in *" $mod "*) ;; *) echo "$file: $target may not import $mod"; status=1;; esac
  # Swift imports start in column 0 here; an indented `import` is text (a code snippet in a string).
  done < <(grep -HnE '^(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*import[[:space:]]' -r "$dir" --include='*.swift' || true)
done
[ $status = 0 ] && echo "imports follow the layering table"
exit $status
