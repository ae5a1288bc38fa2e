#!/usr/bin/env bash
# Builds and tests the Android (JVM) client library without Gradle or Maven: Debian's javac and JUnit 5.
#   build.sh            compiles the library and its tests into Android/build/ and runs every test
#   build.sh compile    compiles the library only (build/classes), what the conformance client needs
#   build.sh test ARGS  compiles both and runs JUnit, ARGS going to the console launcher
#                       (e.g. --select-class com.livery.client.tuf.CanonicalJsonTest)
#   build.sh classpath  prints the library's run-time class path (its classes and the jars it uses)
#   build.sh cds        writes the class-data-sharing archive the conformance client starts from
# The jars come from Debian packages (`make test-java` installs them): jackson-core for JSON, zstd-jni for tar.zst bundles, JUnit 5 for tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$here/build"
jars=/usr/share/java
# Run-time jars of the library; an app gets the same ones from Maven Central (README.md).
runtime_jars="$jars/jackson-core.jar:$jars/zstd-jni.jar"
junit="$jars/junit-platform-console-standalone.jar"

compile_main() {
    rm -rf "$build/classes"
    mkdir -p "$build/classes"
    # --release 17: the language level and the Java 17 API only; Android-only limits are kept by review (README.md).
    find "$here/src/main/java" -name '*.java' > "$build/main-sources.txt"
    javac --release 17 -Xlint:all,-serial -Werror -encoding UTF-8 -cp "$runtime_jars" -d "$build/classes" @"$build/main-sources.txt"
    # The library as an app would take it; class-data sharing also needs classes from a jar, not a folder.
    rm -f "$build/livery-client.jar"
    jar --create --file "$build/livery-client.jar" -C "$build/classes" .
}

compile_tests() {
    rm -rf "$build/test-classes"
    mkdir -p "$build/test-classes"
    find "$here/src/test/java" -name '*.java' > "$build/test-sources.txt"
    javac --release 17 -encoding UTF-8 -cp "$build/classes:$runtime_jars:$junit" -d "$build/test-classes" @"$build/test-sources.txt"
    if [[ -d "$here/src/test/resources" ]]; then cp -R "$here/src/test/resources/." "$build/test-classes/"; fi
}

classpath() { echo "$build/livery-client.jar:$runtime_jars"; }

command="${1:-test}"
[[ $# -gt 0 ]] && shift
case "$command" in
    compile) compile_main ;;
    classpath) classpath ;;
    test)
        compile_main
        compile_tests
        # Tests find the repository (the hostile server, scripts) and the livery binary through these.
        export LIVERY_REPO="$(cd "$here/.." && pwd)"
        export ANDROID_BUILD="$build"
        if [[ $# -eq 0 ]]; then set -- --scan-class-path "$build/test-classes"; fi
        java -jar "$junit" --class-path "$build/test-classes:$(classpath)" --disable-banner --details=summary \
            --details-theme=ascii "$@"
        ;;
    cds)
        compile_main
        "$here/scripts/make-cds-archive.sh"
        ;;
    *) echo "build.sh: unknown command '$command' (compile, test, classpath, cds)" >&2; exit 2 ;;
esac
