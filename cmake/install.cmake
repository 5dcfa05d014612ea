# Install layout (GNUInstallDirs) and the Debian package (CPack DEB):
#   bin/dplab, bin/dplab-cli
#   share/dplab/presets/*.json, share/dplab/lessons/*.json (Playground lessons), share/dplab/datasets/
#   (with SHA256SUMS, verified by the loader)
#   share/applications/org.dplab.Dplab.desktop, share/metainfo/org.dplab.Dplab.metainfo.xml
#   share/icons/hicolor/{scalable,256x256}/apps/org.dplab.Dplab.{svg,png}
#   share/man/man1/dplab{,-cli}.1.gz and share/bash-completion/completions/dplab-cli, both
#   generated at build time from the programs' own --help by scripts/cli-docs.sh so they never
#   drift (man pages gzip -9n, as Debian policy wants them)
#   share/doc/dplab/{README.md,copyright,changelog.gz} (copyright: Debian's machine-readable
#   format, resources/debian/copyright)
# Every file below is install component "dplab"; the Python module (app/python/CMakeLists.txt) is
# component "python", packaged below.
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME dplab)
set(DPLAB_APP_ID org.dplab.Dplab)
set(DPLAB_DOCS_SCRIPT "${PROJECT_SOURCE_DIR}/scripts/cli-docs.sh")
set(DPLAB_GENERATED "${PROJECT_BINARY_DIR}/generated")

install(TARGETS dplab-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/resources/presets/"
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dplab/presets FILES_MATCHING PATTERN "*.json")
# The Playground's lessons (issue #27): teachers copy and edit them; the GUI opens them from disk.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/resources/lessons/"
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dplab/lessons FILES_MATCHING PATTERN "*.json")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/datasets/" DESTINATION ${CMAKE_INSTALL_DATADIR}/dplab/datasets
        PATTERN ".gitignore" EXCLUDE)
# The KJV corpus, sparse-train's and canary's default (generated, not in git; found like every
# shipped data set, engine/data/shipped_datasets.h): datasets/kjv/kjv.txt is installed above when
# scripts/make-kjv-corpus.sh made it (scripts/test.sh does); otherwise it is made at build time
# when the build machine has Debian's `bible` program (bible-kjv), as for the package.
find_program(DPLAB_BIBLE_PROGRAM bible)
if(NOT EXISTS "${PROJECT_SOURCE_DIR}/datasets/kjv/kjv.txt")
  if(DPLAB_BIBLE_PROGRAM)
    add_custom_command(
      OUTPUT "${DPLAB_GENERATED}/kjv/kjv.txt"
      COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/make-kjv-corpus.sh" "${DPLAB_GENERATED}/kjv/kjv.txt"
      DEPENDS "${PROJECT_SOURCE_DIR}/scripts/make-kjv-corpus.sh"
      COMMENT "Writing the KJV corpus (scripts/make-kjv-corpus.sh)"
      VERBATIM)
    add_custom_target(dplab_kjv_corpus ALL DEPENDS "${DPLAB_GENERATED}/kjv/kjv.txt")
    install(FILES "${DPLAB_GENERATED}/kjv/kjv.txt"
            DESTINATION ${CMAKE_INSTALL_DATADIR}/dplab/datasets/kjv)
  else()
    message(STATUS "dplab: no KJV corpus to install (apt-get install bible-kjv-text bible-kjv, "
                   "or run scripts/make-kjv-corpus.sh)")
  endif()
endif()
# Who builds the package signs its changelog and control file (lintian wants a real address).
set(DPLAB_PACKAGE_MAINTAINER "dplab developers <dplab@localhost>" CACHE STRING
    "Maintainer of the .deb: \"Name <email>\"")
configure_file("${PROJECT_SOURCE_DIR}/resources/debian/changelog.in" "${DPLAB_GENERATED}/changelog"
               @ONLY)
add_custom_command(
  OUTPUT "${DPLAB_GENERATED}/changelog.gz"
  COMMAND gzip -9nkf "${DPLAB_GENERATED}/changelog"
  DEPENDS "${DPLAB_GENERATED}/changelog"
  VERBATIM)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/resources/debian/copyright"
              "${DPLAB_GENERATED}/changelog.gz"
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

add_custom_command(
  OUTPUT "${DPLAB_GENERATED}/dplab-cli.1" "${DPLAB_GENERATED}/completions/dplab-cli"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${DPLAB_GENERATED}/completions"
  COMMAND bash "${DPLAB_DOCS_SCRIPT}" man $<TARGET_FILE:dplab-cli> dplab-cli ${PROJECT_VERSION}
          "differentially private training, honest hyperparameter search and privacy accounting"
          > "${DPLAB_GENERATED}/dplab-cli.1"
  COMMAND gzip -9nkf "${DPLAB_GENERATED}/dplab-cli.1"
  COMMAND bash "${DPLAB_DOCS_SCRIPT}" bash-completion $<TARGET_FILE:dplab-cli> dplab-cli
          > "${DPLAB_GENERATED}/completions/dplab-cli"
  BYPRODUCTS "${DPLAB_GENERATED}/dplab-cli.1.gz"
  DEPENDS dplab-cli "${DPLAB_DOCS_SCRIPT}"
  COMMENT "Generating dplab-cli's man page and bash completion from its --help"
  VERBATIM)
set(DPLAB_GENERATED_DOCS "${DPLAB_GENERATED}/dplab-cli.1" "${DPLAB_GENERATED}/completions/dplab-cli"
    "${DPLAB_GENERATED}/changelog.gz")
install(FILES "${DPLAB_GENERATED}/dplab-cli.1.gz" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES "${DPLAB_GENERATED}/completions/dplab-cli"
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

if(DPLAB_GUI)
  install(TARGETS dplab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  add_custom_command(
    OUTPUT "${DPLAB_GENERATED}/dplab.1"
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
            bash "${DPLAB_DOCS_SCRIPT}" man $<TARGET_FILE:dplab> dplab ${PROJECT_VERSION}
            "desktop laboratory for differentially private machine learning"
            > "${DPLAB_GENERATED}/dplab.1"
    COMMAND gzip -9nkf "${DPLAB_GENERATED}/dplab.1"
    BYPRODUCTS "${DPLAB_GENERATED}/dplab.1.gz"
    DEPENDS dplab "${DPLAB_DOCS_SCRIPT}"
    COMMENT "Generating dplab's man page from its --help"
    VERBATIM)
  list(APPEND DPLAB_GENERATED_DOCS "${DPLAB_GENERATED}/dplab.1")
  install(FILES "${DPLAB_GENERATED}/dplab.1.gz" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  set(desktop "${PROJECT_SOURCE_DIR}/resources/desktop")
  install(FILES "${desktop}/${DPLAB_APP_ID}.desktop" DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES "${desktop}/${DPLAB_APP_ID}.metainfo.xml" DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES "${desktop}/${DPLAB_APP_ID}.svg"
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES "${desktop}/${DPLAB_APP_ID}.png"
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps)
endif()
add_custom_target(dplab_docs ALL DEPENDS ${DPLAB_GENERATED_DOCS})

# cpack -G DEB: dependencies from the linked libraries (dpkg-shlibdeps), plus a sans-serif font for
# the PNG figures (fontconfig's sans-serif, DejaVu Sans on Debian); Fashion-MNIST recommended.
set(CPACK_PACKAGE_NAME dplab)
set(CPACK_PACKAGE_VENDOR "dplab developers")
set(CPACK_PACKAGE_CONTACT "${DPLAB_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)
# A package must run on every x86-64 CPU and must not look for its data in this checkout: cpack
# (and the `package` target) refuse a native or source-tree build with a message
# (cmake/package-check.cmake, read by cpack before it packages). CMake preset "package" is right.
set(CPACK_DPLAB_NATIVE "${DPLAB_NATIVE}")
set(CPACK_DPLAB_SOURCE_TREE_DATA "${DPLAB_SOURCE_TREE_DATA}")
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_SOURCE_DIR}/cmake/package-check.cmake")
set(CPACK_DEBIAN_PACKAGE_DEPENDS fonts-dejavu-core)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS dataset-fashion-mnist)
# The Python module, when built: a package of its own, python3-dplab, beside dplab (one .deb per
# component), for the interpreter it was built for - a Python module in dplab's .deb would make
# every GUI user depend on python3 (lintian python-package-missing-depends-on-python);
# `cpack -D CPACK_DEB_COMPONENT_INSTALL=OFF` puts both in one .deb.
get_property(DPLAB_PYTHON_VERSION GLOBAL PROPERTY DPLAB_PYTHON_VERSION)
get_property(DPLAB_PYTHON_NEXT_VERSION GLOBAL PROPERTY DPLAB_PYTHON_NEXT_VERSION)
if(DPLAB_PYTHON_VERSION)
  if(NOT DEFINED CPACK_DEB_COMPONENT_INSTALL)
    set(CPACK_DEB_COMPONENT_INSTALL ON)
  endif()
  if(CPACK_DEB_COMPONENT_INSTALL)
    set(CPACK_DEBIAN_DPLAB_PACKAGE_SUGGESTS python3-dplab)
  else()  # one .deb: its arrays and frames
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${CPACK_DEBIAN_PACKAGE_RECOMMENDS}, python3-numpy, python3-pandas")
  endif()
  set(CPACK_DEBIAN_DPLAB_PACKAGE_NAME dplab)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-dplab)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  # It finds the shipped data sets and presets where dplab installs them.
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "dplab (= ${PROJECT_VERSION}), python3 (>= ${DPLAB_PYTHON_VERSION}), python3 (<< ${DPLAB_PYTHON_NEXT_VERSION}), python3-numpy")
  # Every Debian package has its copyright and changelog in /usr/share/doc/<package>.
  install(FILES "${PROJECT_SOURCE_DIR}/resources/debian/copyright" "${DPLAB_GENERATED}/changelog.gz"
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/python3-dplab COMPONENT python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS python3-pandas)
  set(CPACK_COMPONENT_PYTHON_DESCRIPTION
      "dplab's engine as a Python module (import dplab): accounting, DP training
and searches on numpy arrays, release folders as Python objects.")
endif()
# CPack indents each line by one space: lines start flush here (a leading space would make them
# preformatted) and stay under 80 characters (lintian extended-description-line-too-long).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "dplab trains models with DP optimizers (DP-SGD, DP-Adam, ADADP, ...), accounts
privacy with RDP and PLD, and counts the privacy cost of hyperparameter search.
Desktop GUI (dplab) and a command-line tool (dplab-cli).")
include(CPack)
